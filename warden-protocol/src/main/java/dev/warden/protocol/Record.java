package dev.warden.protocol;

/** A jute record: its fields written in declaration order, with no tag or length of its own. */
public interface Record {
    void writeTo(JuteWriter out);

    /**
     * About how many bytes {@link #writeTo} writes, so a writer can be sized once instead of
     * growing (and copying) on the reply path. Exact for the records that carry data; a guess
     * for the others, where growing is rare and cheap.
     */
    default int sizeHintBytes() {
        return 64;
    }

    /** Encodes this record alone; convenient for tests and cold paths. */
    default byte[] toBytes() {
        JuteWriter out = new JuteWriter(sizeHintBytes());
        writeTo(out);
        return out.toByteArray();
    }
}

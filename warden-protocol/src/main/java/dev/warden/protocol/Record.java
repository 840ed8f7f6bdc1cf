package dev.warden.protocol;

/** A jute record: its fields written in declaration order, with no tag or length of its own. */
public interface Record {
    void writeTo(JuteWriter out);

    /** Encodes this record alone; convenient for tests and cold paths. */
    default byte[] toBytes() {
        JuteWriter out = new JuteWriter(64);
        writeTo(out);
        return out.toByteArray();
    }
}

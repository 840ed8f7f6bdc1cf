package dev.warden.protocol;

/** Wire record Acl (jute). */
public record Acl(int perms, Id id) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(perms);
        id.writeTo(out);
    }

    @Override
    public int sizeHintBytes() {
        return 4 + id.sizeHintBytes();
    }

    public static Acl read(JuteReader in) {
        return new Acl(in.readInt(), Id.read(in));
    }
}

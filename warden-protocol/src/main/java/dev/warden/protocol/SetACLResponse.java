package dev.warden.protocol;

/** Wire record SetACLResponse (jute). */
public record SetACLResponse(Stat stat) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        stat.writeTo(out);
    }

    public static SetACLResponse read(JuteReader in) {
        return new SetACLResponse(Stat.read(in));
    }
}

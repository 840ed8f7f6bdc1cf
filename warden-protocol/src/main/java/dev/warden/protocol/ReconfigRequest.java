package dev.warden.protocol;

/** Wire record ReconfigRequest (jute). */
public record ReconfigRequest(String joiningServers, String leavingServers, String newMembers, long curConfigId) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(joiningServers);
        out.writeString(leavingServers);
        out.writeString(newMembers);
        out.writeLong(curConfigId);
    }

    public static ReconfigRequest read(JuteReader in) {
        return new ReconfigRequest(in.readString(), in.readString(), in.readString(), in.readLong());
    }
}

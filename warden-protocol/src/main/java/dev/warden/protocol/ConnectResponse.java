package dev.warden.protocol;

/** The first frame a server sends. {@code readOnlyPresent} false omits the trailing byte for old clients. */
public record ConnectResponse(int protocolVersion, int timeOutMs, long sessionId, byte[] passwd,
                              boolean readOnly, boolean readOnlyPresent) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(protocolVersion);
        out.writeInt(timeOutMs);
        out.writeLong(sessionId);
        out.writeBuffer(passwd);
        if (readOnlyPresent) {
            out.writeBool(readOnly);
        }
    }

    public static ConnectResponse read(JuteReader in) {
        int protocolVersion = in.readInt();
        int timeOut = in.readInt();
        long sessionId = in.readLong();
        byte[] passwd = in.readBuffer();
        boolean present = in.hasRemaining();
        boolean readOnly = present && in.readBool();
        return new ConnectResponse(protocolVersion, timeOut, sessionId, passwd, readOnly, present);
    }
}

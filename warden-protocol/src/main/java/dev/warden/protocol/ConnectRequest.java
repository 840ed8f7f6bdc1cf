package dev.warden.protocol;

/**
 * The first frame a client sends. {@code readOnlyPresent} records whether the optional
 * trailing readOnly byte was on the wire (clients up to 3.3 omit it), because the reply
 * then omits it too.
 */
public record ConnectRequest(int protocolVersion, long lastZxidSeen, int timeOutMs, long sessionId,
                             byte[] passwd, boolean readOnly, boolean readOnlyPresent) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeInt(protocolVersion);
        out.writeLong(lastZxidSeen);
        out.writeInt(timeOutMs);
        out.writeLong(sessionId);
        out.writeBuffer(passwd);
        if (readOnlyPresent) {
            out.writeBool(readOnly);
        }
    }

    public static ConnectRequest read(JuteReader in) {
        int protocolVersion = in.readInt();
        long lastZxidSeen = in.readLong();
        int timeOut = in.readInt();
        long sessionId = in.readLong();
        byte[] passwd = in.readBuffer();
        boolean present = in.hasRemaining();
        boolean readOnly = present && in.readBool();
        return new ConnectRequest(protocolVersion, lastZxidSeen, timeOut, sessionId, passwd, readOnly, present);
    }
}

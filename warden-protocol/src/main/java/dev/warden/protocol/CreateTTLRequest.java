package dev.warden.protocol;

import java.util.List;

/** Wire record CreateTTLRequest (jute). */
public record CreateTTLRequest(String path, byte[] data, List<Acl> acl, int flags, long ttl) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeBuffer(data);
        out.writeList(acl);
        out.writeInt(flags);
        out.writeLong(ttl);
    }

    @Override
    public int sizeHintBytes() {
        return JuteWriter.stringSizeHint(path) + JuteWriter.bufferSizeHint(data) + JuteWriter.listSizeHint(acl) + 4 + 8;
    }

    public static CreateTTLRequest read(JuteReader in) {
        return new CreateTTLRequest(in.readString(), in.readBuffer(), in.readList(Acl::read), in.readInt(), in.readLong());
    }
}

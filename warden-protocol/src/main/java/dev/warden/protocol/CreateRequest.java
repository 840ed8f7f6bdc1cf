package dev.warden.protocol;

import java.util.List;

/** Wire record CreateRequest (jute). */
public record CreateRequest(String path, byte[] data, List<Acl> acl, int flags) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeBuffer(data);
        out.writeList(acl);
        out.writeInt(flags);
    }

    @Override
    public int sizeHintBytes() {
        return JuteWriter.stringSizeHint(path) + JuteWriter.bufferSizeHint(data) + JuteWriter.listSizeHint(acl) + 4;
    }

    public static CreateRequest read(JuteReader in) {
        return new CreateRequest(in.readString(), in.readBuffer(), in.readList(Acl::read), in.readInt());
    }
}

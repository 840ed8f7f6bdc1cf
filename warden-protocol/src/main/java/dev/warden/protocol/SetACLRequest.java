package dev.warden.protocol;

import java.util.List;

/** Wire record SetACLRequest (jute). */
public record SetACLRequest(String path, List<Acl> acl, int version) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeString(path);
        out.writeList(acl);
        out.writeInt(version);
    }

    public static SetACLRequest read(JuteReader in) {
        return new SetACLRequest(in.readString(), in.readList(Acl::read), in.readInt());
    }
}

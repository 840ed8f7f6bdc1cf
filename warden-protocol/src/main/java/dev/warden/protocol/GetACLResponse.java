package dev.warden.protocol;

import java.util.List;

/** Wire record GetACLResponse (jute). */
public record GetACLResponse(List<Acl> acl, Stat stat) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeList(acl);
        stat.writeTo(out);
    }

    public static GetACLResponse read(JuteReader in) {
        return new GetACLResponse(in.readList(Acl::read), Stat.read(in));
    }
}

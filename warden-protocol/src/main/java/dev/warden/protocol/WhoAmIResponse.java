package dev.warden.protocol;

import java.util.List;

/** Wire record WhoAmIResponse (jute). */
public record WhoAmIResponse(List<ClientInfo> clientInfo) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeList(clientInfo);
    }

    public static WhoAmIResponse read(JuteReader in) {
        return new WhoAmIResponse(in.readList(ClientInfo::read));
    }
}

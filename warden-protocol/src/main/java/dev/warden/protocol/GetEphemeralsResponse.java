package dev.warden.protocol;

import java.util.List;

/** Wire record GetEphemeralsResponse (jute). */
public record GetEphemeralsResponse(List<String> ephemerals) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeStringList(ephemerals);
    }

    public static GetEphemeralsResponse read(JuteReader in) {
        return new GetEphemeralsResponse(in.readStringList());
    }
}

package dev.warden.protocol;

import java.util.List;

/** Wire record GetChildrenResponse (jute). */
public record GetChildrenResponse(List<String> children) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeStringList(children);
    }

    @Override
    public int sizeHintBytes() {
        return JuteWriter.stringListSizeHint(children);
    }

    public static GetChildrenResponse read(JuteReader in) {
        return new GetChildrenResponse(in.readStringList());
    }
}

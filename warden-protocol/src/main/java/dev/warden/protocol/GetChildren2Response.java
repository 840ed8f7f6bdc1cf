package dev.warden.protocol;

import java.util.List;

/** Wire record GetChildren2Response (jute). */
public record GetChildren2Response(List<String> children, Stat stat) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeStringList(children);
        stat.writeTo(out);
    }

    @Override
    public int sizeHintBytes() {
        return JuteWriter.stringListSizeHint(children) + Stat.BYTES;
    }

    public static GetChildren2Response read(JuteReader in) {
        return new GetChildren2Response(in.readStringList(), Stat.read(in));
    }
}

package dev.warden.protocol;

import java.util.List;

/** Wire record SetWatches (jute). */
public record SetWatches(long relativeZxid, List<String> dataWatches, List<String> existWatches, List<String> childWatches) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeLong(relativeZxid);
        out.writeStringList(dataWatches);
        out.writeStringList(existWatches);
        out.writeStringList(childWatches);
    }

    public static SetWatches read(JuteReader in) {
        return new SetWatches(in.readLong(), in.readStringList(), in.readStringList(), in.readStringList());
    }
}

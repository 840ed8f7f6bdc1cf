package dev.warden.protocol;

import java.util.List;

/** Wire record SetWatches2 (jute). */
public record SetWatches2(long relativeZxid, List<String> dataWatches, List<String> existWatches, List<String> childWatches, List<String> persistentWatches, List<String> persistentRecursiveWatches) implements Record {
    @Override
    public void writeTo(JuteWriter out) {
        out.writeLong(relativeZxid);
        out.writeStringList(dataWatches);
        out.writeStringList(existWatches);
        out.writeStringList(childWatches);
        out.writeStringList(persistentWatches);
        out.writeStringList(persistentRecursiveWatches);
    }

    public static SetWatches2 read(JuteReader in) {
        return new SetWatches2(in.readLong(), in.readStringList(), in.readStringList(), in.readStringList(), in.readStringList(), in.readStringList());
    }
}

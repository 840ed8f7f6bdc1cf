package dev.warden.bench.compare;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How many members a deployment has; all of them on loopback. */
public enum Topology {
    STANDALONE("standalone", 1),
    ENSEMBLE3("3 members", 3);

    private final String title;
    private final int members;

    Topology(String title, int members) {
        this.title = title;
        this.members = members;
    }

    public String title() {
        return title;
    }

    public int members() {
        return members;
    }

    public static Topology parse(String name) {
        for (Topology t : values()) {
            if (t.name().equalsIgnoreCase(name) || t.title.equalsIgnoreCase(name)
                    || (t == ENSEMBLE3 && name.equals("3"))) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown topology '" + name + "'; known: "
                + Arrays.stream(values()).map(t -> t.name().toLowerCase()).collect(Collectors.joining(", ")));
    }
}

package dev.warden.bench.compare;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How many members a deployment has, all of them on loopback, and whether clients and members talk
 * over TLS. A TLS deployment serves its load on {@code secureClientPort} (the plaintext client port
 * stays, for the four-letter words that tell when a member serves) and, with more than one member,
 * runs the quorum on TLS too ({@code sslQuorum=true}).
 */
public enum Topology {
    STANDALONE("standalone", 1, false),
    ENSEMBLE3("3 members", 3, false),
    ENSEMBLE5("5 members", 5, false),
    ENSEMBLE7("7 members", 7, false),
    STANDALONE_TLS("standalone, TLS", 1, true),
    ENSEMBLE3_TLS("3 members, TLS", 3, true);

    private final String title;
    private final int members;
    private final boolean tls;

    Topology(String title, int members, boolean tls) {
        this.title = title;
        this.members = members;
        this.tls = tls;
    }

    /** Whether the load and (with several members) the quorum run over TLS. */
    public boolean tls() {
        return tls;
    }

    /** The name the command line takes: "ensemble3", "ensemble3-tls". */
    public String cliName() {
        return name().toLowerCase().replace('_', '-');
    }

    public String title() {
        return title;
    }

    /** Members in the deployment. */
    public int members() {
        return members;
    }

    public static Topology parse(String name) {
        for (Topology t : values()) {
            if (t.name().equalsIgnoreCase(name) || t.cliName().equalsIgnoreCase(name) || t.title.equalsIgnoreCase(name)
                    || (t == ENSEMBLE3 && name.equals("3"))) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown topology '" + name + "'; known: "
                + Arrays.stream(values()).map(Topology::cliName).collect(Collectors.joining(", ")));
    }
}

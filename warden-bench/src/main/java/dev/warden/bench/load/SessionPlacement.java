package dev.warden.bench.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Spreads a run's sessions evenly over the servers of a connect string: session i gets server
 * i mod n as its home, with the others after it as fail-over order.
 *
 * <p>Why not let the client shuffle, as clients normally do: with 16 sessions over 3 members a
 * shuffle puts anywhere from 2 to 10 of them on the leader, and on an ensemble a write sent to
 * the leader costs less than one a follower must forward. That moved one server's throughput by
 * 10–20 % from run to run, and a comparison gave the two servers different placements. Placed
 * this way, every run of every server loads each member alike.
 */
public final class SessionPlacement {
    private SessionPlacement() {
    }

    /**
     * {@code connectString} with its hosts rotated so that host {@code sessionIndex mod n} comes
     * first; a chroot suffix is kept.
     */
    public static String homeFirst(String connectString, int sessionIndex) {
        if (sessionIndex < 0) {
            throw new IllegalArgumentException("session index " + sessionIndex + " must be >= 0");
        }
        int slash = connectString.indexOf('/');
        String hostPart = slash < 0 ? connectString : connectString.substring(0, slash);
        String chroot = slash < 0 ? "" : connectString.substring(slash);
        List<String> hosts = new ArrayList<>(Arrays.asList(hostPart.split(",")));
        Collections.rotate(hosts, -(sessionIndex % hosts.size()));
        return String.join(",", hosts) + chroot;
    }
}

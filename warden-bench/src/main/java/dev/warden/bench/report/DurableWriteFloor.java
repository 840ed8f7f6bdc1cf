package dev.warden.bench.report;

import dev.warden.bench.compare.DiskLatency;
import dev.warden.bench.compare.ScenarioOutcome;
import dev.warden.bench.compare.Suite;
import dev.warden.bench.compare.Topology;
import dev.warden.bench.load.LoadResult;
import dev.warden.cli.cluster.Flavour;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The least time one write in flight can take on this machine, from two measured parts: the
 * round trip of a read with nothing queued (the faster server's getData1x1 p50: client, loopback
 * and a server's way in and out) and one sync of the log (the disk's fsync p50). A server that
 * syncs before it answers pays both; an ensemble pays more still (a member's acknowledgement), so
 * there the floor is a lower bound only. Set against Apache's setData1x1 p50, it says how low the
 * p50 ratio can go here: a target below it is out of reach on this machine, whatever the server.
 *
 * @param readRoundTripUs the faster server's getData1x1 p50
 * @param fsyncUs         the disk's fsync p50
 * @param apacheWriteUs   Apache ZooKeeper's setData1x1 p50
 */
record DurableWriteFloor(long readRoundTripUs, long fsyncUs, long apacheWriteUs) {

    long floorUs() {
        return readRoundTripUs + fsyncUs;
    }

    double ratioToApache() {
        return (double) floorUs() / apacheWriteUs;
    }

    /** The floor of one topology, if both one-by-one scenarios ran, the read with both servers. */
    static Optional<DurableWriteFloor> of(Topology topology, List<ScenarioOutcome> outcomes, DiskLatency disk) {
        Map<Flavour, LoadResult> reads = medians(topology, outcomes, Suite.READ_ONE_BY_ONE);
        LoadResult apacheWrite = medians(topology, outcomes, Suite.WRITE_ONE_BY_ONE).get(Flavour.APACHE);
        LoadResult apacheRead = reads.get(Flavour.APACHE);
        LoadResult wardenRead = reads.get(Flavour.WARDEN);
        if (apacheRead == null || wardenRead == null || apacheWrite == null || apacheWrite.p50Us() <= 0) {
            return Optional.empty();
        }
        return Optional.of(new DurableWriteFloor(Math.min(apacheRead.p50Us(), wardenRead.p50Us()), disk.p50Us(),
                apacheWrite.p50Us()));
    }

    /** Each server's median figures for the scenario in this topology; empty if it did not run. */
    private static Map<Flavour, LoadResult> medians(Topology topology, List<ScenarioOutcome> outcomes, String scenario) {
        return outcomes.stream().filter(o -> o.topology() == topology && o.scenario().name().equals(scenario))
                .findFirst().map(ScenarioOutcome::results).orElse(Map.of());
    }

    String describe(Topology topology) {
        String text = String.format(Locale.ROOT, "Floor under one write in flight: a read's round trip (getData1x1 p50"
                        + " of the faster server) %d µs + one fsync of the log (p50) %d µs = %d µs, which is %.2f× Apache"
                        + " ZooKeeper's setData1x1 p50 of %d µs. ",
                readRoundTripUs, fsyncUs, floorUs(), ratioToApache(), apacheWriteUs);
        if (topology == Topology.STANDALONE) {
            return text + String.format(Locale.ROOT, "No server that syncs its log before it answers can have a"
                    + " setData1x1 p50 ratio much below %.2f× on this machine.", ratioToApache());
        }
        return text + "With 3 members a write also waits for another member to log it and acknowledge, so this is a"
                + " lower bound only.";
    }
}

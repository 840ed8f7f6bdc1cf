package dev.warden.chaos.run;

import dev.warden.chaos.nemesis.FaultKind;
import dev.warden.chaos.net.NetworkMode;
import dev.warden.cli.cluster.Flavour;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One run's settings.
 *
 * @param faultFor   how long the nemesis injects faults; the final heal, reads and checks follow
 * @param holdMinMs  shortest time a fault is held
 * @param holdMaxMs  longest
 * @param sampleResources sample the members' heap, threads, descriptors and disk every few seconds (the soak)
 * @param extraConfigLines {@code key=value} lines added to every member's zoo.cfg
 * @param network    netns, relay, or auto (netns when the machine allows it)
 */
public record RunOptions(Flavour flavour, int members, Duration faultFor, long seed, List<FaultKind> faults,
                         Path runDir, int tickTimeMs, int sessionTimeoutMs, long holdMinMs, long holdMaxMs,
                         boolean sampleResources, String classPath, List<String> extraConfigLines,
                         NetworkMode network) {
    /** Members connected through relays on loopback. */
    public RunOptions(Flavour flavour, int members, Duration faultFor, long seed, List<FaultKind> faults,
                      Path runDir, int tickTimeMs, int sessionTimeoutMs, long holdMinMs, long holdMaxMs,
                      boolean sampleResources, String classPath, List<String> extraConfigLines) {
        this(flavour, members, faultFor, seed, faults, runDir, tickTimeMs, sessionTimeoutMs, holdMinMs, holdMaxMs,
                sampleResources, classPath, extraConfigLines, NetworkMode.RELAY);
    }

    public RunOptions {
        faults = List.copyOf(faults);
        extraConfigLines = List.copyOf(extraConfigLines);
        if (members != 3 && members != 5) {
            throw new IllegalArgumentException("--members is 3 or 5, was " + members);
        }
        if (faultFor.isNegative() || faultFor.isZero()) {
            throw new IllegalArgumentException("the fault phase must last a while, was " + faultFor);
        }
        if (holdMinMs < 100 || holdMaxMs < holdMinMs) {
            throw new IllegalArgumentException("fault hold times " + holdMinMs + ".." + holdMaxMs + " ms make no sense");
        }
    }
}

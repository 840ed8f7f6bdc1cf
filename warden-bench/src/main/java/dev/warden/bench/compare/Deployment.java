package dev.warden.bench.compare;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One flavour in one topology, every member a JVM of its own on loopback, serving once
 * {@link #start} returns. Standalone members are launched here; ensembles by the local cluster
 * launcher. Closing stops every member.
 */
public final class Deployment implements AutoCloseable {
    /** How a started deployment is stopped. */
    @FunctionalInterface
    interface Stopper {
        void stop() throws InterruptedException;
    }

    private final Flavour flavour;
    private final Topology topology;
    private final String connectString;
    private final Stopper stopper;

    Deployment(Flavour flavour, Topology topology, String connectString, Stopper stopper) {
        this.flavour = flavour;
        this.topology = topology;
        this.connectString = connectString;
        this.stopper = stopper;
    }

    /** Starts every member under {@code dir} and waits until all serve in the expected mode. */
    public static Deployment start(Flavour flavour, Topology topology, Path dir, JvmSettings jvm, long readyTimeoutMs)
            throws IOException, InterruptedException, DeploymentUnavailableException {
        return topology == Topology.STANDALONE
                ? StandaloneLauncher.start(flavour, dir, jvm, readyTimeoutMs)
                : EnsembleLauncher.start(flavour, topology, dir, jvm, readyTimeoutMs);
    }

    /** The JVM options every member of either flavour gets: the same heap, plus the flavour's own. */
    static List<String> memberJvmOptions(Flavour flavour, JvmSettings jvm) {
        List<String> options = new ArrayList<>(List.of("-Xms" + jvm.heapMb() + "m", "-Xmx" + jvm.heapMb() + "m"));
        options.addAll(flavour.jvmOptions(jvm.juteMaxBufferBytes()));
        return options;
    }

    public Flavour flavour() {
        return flavour;
    }

    public Topology topology() {
        return topology;
    }

    /** Every member's client address, so sessions spread over the members as clients' would. */
    public String connectString() {
        return connectString;
    }

    @Override
    public void close() throws InterruptedException {
        stopper.stop();
    }
}

package dev.warden.bench.compare;

import dev.warden.bench.load.LoadClientTls;
import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

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

    /** Which members have exited on their own, each with what it left in its log; empty while all run. */
    @FunctionalInterface
    interface Liveness {
        List<String> deadMembers();
    }

    /**
     * System properties every member of both flavours gets, so the two command lines differ only in
     * the main class. Only Apache ZooKeeper reads them (Warden takes its settings from the config
     * file): its frame limit, fsync before acknowledging (explicit), no admin web server (members
     * would fight over port 8080) and no log4j MBeans.
     */
    static List<String> commonSystemProperties(int juteMaxBufferBytes) {
        // zookeeper.log.threshold: both servers log through warden-cli's logback.xml here; warnings
        // and errors only, so neither pays for INFO logging during a run
        return List.of("-Djute.maxbuffer=" + juteMaxBufferBytes, "-Dzookeeper.forceSync=yes",
                "-Dzookeeper.admin.enableServer=false", "-Dzookeeper.jmx.log4j.disable=true",
                "-Dzookeeper.log.threshold=WARN");
    }

    private final Flavour flavour;
    private final Topology topology;
    private final String connectString;
    private final LoadClientTls clientTls;
    private final Stopper stopper;
    private final Liveness liveness;
    private final Supplier<List<Long>> memberPids;

    Deployment(Flavour flavour, Topology topology, String connectString, LoadClientTls clientTls, Stopper stopper,
               Liveness liveness, Supplier<List<Long>> memberPids) {
        this.flavour = flavour;
        this.topology = topology;
        this.connectString = connectString;
        this.clientTls = clientTls;
        this.stopper = stopper;
        this.liveness = liveness;
        this.memberPids = memberPids;
    }

    /**
     * Starts every member under {@code dir} and waits until all serve in the expected mode. A TLS
     * topology first makes its key and trust stores (under {@code dir}, per flavour).
     */
    public static Deployment start(Flavour flavour, Topology topology, Path dir, JvmSettings jvm, long readyTimeoutMs)
            throws IOException, InterruptedException, DeploymentUnavailableException {
        TlsMaterial tls = topology.tls()
                ? TlsMaterial.create(dir.resolve(flavour.name().toLowerCase() + "-tls"), jvm.javaExecutable())
                : null;
        return topology.members() == 1
                ? StandaloneLauncher.start(flavour, dir, jvm, readyTimeoutMs, tls)
                : EnsembleLauncher.start(flavour, topology, dir, jvm, readyTimeoutMs, tls);
    }

    /** What the load client connects with: plaintext, or TLS with {@code tls}'s stores. */
    static LoadClientTls clientTls(TlsMaterial tls) {
        return tls == null ? LoadClientTls.NONE : new LoadClientTls(tls.clientProperties());
    }

    /**
     * The JVM options of every member, identical for both flavours: the same heap and collector
     * (named, so a change of the JVM's ergonomics cannot favour one side), the same properties.
     */
    static List<String> memberJvmOptions(JvmSettings jvm) {
        List<String> options = new ArrayList<>(List.of("-Xms" + jvm.heapMb() + "m", "-Xmx" + jvm.heapMb() + "m",
                "-XX:+UseG1GC"));
        options.addAll(commonSystemProperties(jvm.juteMaxBufferBytes()));
        // Diagnostics only (GC logs, JFR), added to both servers alike; never set for a result run.
        String extra = System.getenv("WARDEN_BENCH_EXTRA_JVM_OPTS");
        if (extra != null && !extra.isBlank()) {
            options.addAll(List.of(extra.trim().split("\\s+")));
        }
        return options;
    }

    /**
     * Members that have died (say, out of memory), one line each; empty when every member still
     * runs. A deployment with a dead member must not be measured again: restart it.
     */
    public List<String> deadMembers() {
        return liveness.deadMembers();
    }

    /** The process id of every member's JVM, in member order, so a caller can ask the JVM itself (heap, say). */
    public List<Long> memberPids() {
        return memberPids.get();
    }

    public Flavour flavour() {
        return flavour;
    }

    public Topology topology() {
        return topology;
    }

    /** How the load client must connect: in plaintext or over TLS. */
    public LoadClientTls clientTls() {
        return clientTls;
    }

    /**
     * Every member's client address (the TLS port in a TLS deployment), so sessions spread over
     * the members as clients' would.
     */
    public String connectString() {
        return connectString;
    }

    @Override
    public void close() throws InterruptedException {
        stopper.stop();
    }
}

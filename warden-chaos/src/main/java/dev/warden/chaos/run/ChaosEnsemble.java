package dev.warden.chaos.run;

import dev.warden.chaos.net.NetNamespaces;
import dev.warden.chaos.net.Network;
import dev.warden.chaos.net.NetworkMode;
import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberMode;
import dev.warden.cli.cluster.MemberProcess;
import dev.warden.cli.faults.DiskFaultControl;
import dev.warden.cli.faults.UnsyncedWriteJournal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The members of one run and the levers the nemesis pulls: a {@link LocalCluster} whose members
 * reach each other through the run's {@link Network}, each member with a disk fault control file
 * (Warden only) and a wall-clock offset file read by libfaketime (when installed). With
 * {@link NetworkMode#NETNS} every member runs in a network namespace of its own
 * ({@code ip netns exec}), reached from here through a bridge.
 */
public final class ChaosEnsemble implements AutoCloseable {
    public static final String DISK_CONTROL_FILE = "disk-faults";
    public static final String CLOCK_FILE = "clock-offset";
    /** In a member's directory: the name of the network namespace it runs in. */
    public static final String NETNS_FILE = "netns";
    /** Debian's libfaketime (its multi-threaded variant lost member connections under a JVM here). */
    public static final Path LIBFAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

    private final Flavour flavour;
    private final Network network;
    private final LocalCluster cluster;
    private final boolean clockFaults;

    private ChaosEnsemble(Flavour flavour, Network network, LocalCluster cluster, boolean clockFaults) {
        this.flavour = flavour;
        this.network = network;
        this.cluster = cluster;
        this.clockFaults = clockFaults;
    }

    /**
     * Lays out the members under {@code runDir} and starts them.
     *
     * @param classPath a class path holding Warden's server command and ZooKeeper's QuorumPeerMain
     * @param extraConfigLines {@code key=value} lines for every member's zoo.cfg, after the suite's own
     * @param mode NETNS or RELAY (already resolved)
     */
    public static ChaosEnsemble start(Flavour flavour, int members, Path runDir, String classPath, int tickTimeMs,
                                      long seed, List<String> extraConfigLines, NetworkMode mode)
            throws IOException, InterruptedException {
        if (mode == NetworkMode.AUTO) {
            throw new IllegalArgumentException("resolve the network mode before starting an ensemble");
        }
        Network network = Network.create(members, seed, mode == NetworkMode.NETNS ? NetNamespaces.create(members)
                : null);
        boolean clockFaults = Files.isReadable(LIBFAKETIME);
        try {
            List<String> jvm = new ArrayList<>(ClusterSpec.DEFAULT_JVM_OPTIONS);
            // heap after each GC, for the soak's leak watch; relative to the member's own directory
            jvm.add("-Xlog:gc:file=gc.log:uptime");
            if (flavour == Flavour.WARDEN) {
                jvm.add("-D" + DiskFaultControl.PROPERTY + "=" + DISK_CONTROL_FILE);
            }
            ClusterSpec.Builder spec = ClusterSpec.builder(flavour, runDir, classPath)
                    .participants(members).tickTimeMs(tickTimeMs).initLimitTicks(10).syncLimitTicks(5)
                    .jvmOptions(jvm)
                    // snapshots and new log segments every few thousand writes, so damage at rest has files to hit
                    .configLine("snapCount=2000");
            extraConfigLines.forEach(spec::configLine);
            if (clockFaults) {
                spec.javaExecutable(faketimeLauncher(runDir, spec.build().javaExecutable()));
            }
            if (network.namespaces().isPresent()) {
                spec.javaExecutable(netnsLauncher(runDir, spec.build().javaExecutable()));
            }
            LocalCluster cluster = LocalCluster.create(spec.build(), network.memberPorts(), network.memberHosts(),
                    network.peerView());
            ChaosEnsemble ensemble = new ChaosEnsemble(flavour, network, cluster, clockFaults);
            for (int id : cluster.ids()) {
                Files.writeString(cluster.member(id).dir().resolve(DISK_CONTROL_FILE), "journal\n");
                if (network.namespaces().isPresent()) {
                    Files.writeString(cluster.member(id).dir().resolve(NETNS_FILE),
                            network.namespaces().get().namespace(id) + "\n");
                }
            }
            cluster.startAll();
            cluster.awaitQuorum(Duration.ofSeconds(90));
            return ensemble;
        } catch (IOException | InterruptedException | RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /**
     * A script that runs {@code next} (java, or the libfaketime launcher) inside the network
     * namespace that the member's directory (its working directory) names in {@value #NETNS_FILE}.
     * Both it and {@code ip netns exec} exec, so the member's pid stays the one this JVM started
     * (kill -9 and SIGSTOP reach the member itself).
     */
    private static Path netnsLauncher(Path runDir, Path next) throws IOException {
        Path script = runDir.resolve("java-in-netns.sh");
        Files.createDirectories(runDir);
        Files.writeString(script, String.join("\n",
                "#!/bin/sh",
                "exec ip netns exec \"$(cat ./" + NETNS_FILE + ")\" " + next + " \"$@\"", ""), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    /**
     * A script that runs java, under libfaketime when the member's directory (its working
     * directory) holds a non-empty {@value #CLOCK_FILE}: its content is the FAKETIME offset, read
     * once at start. Only the wall clock moves; the monotonic clock stays true. libfaketime is
     * preloaded only then because it slows a JVM badly (its hooks on timed waits: a write's median
     * went from 6 ms to 200-330 ms with every member under it, at offset zero), so a clock fault
     * restarts one member with a skewed clock instead of moving a running clock.
     */
    private static Path faketimeLauncher(Path runDir, Path java) throws IOException {
        Path script = runDir.resolve("java-maybe-faketime.sh");
        Files.createDirectories(runDir);
        Files.writeString(script, String.join("\n",
                "#!/bin/sh",
                "if [ -s ./" + CLOCK_FILE + " ]; then",
                "  LD_PRELOAD=" + LIBFAKETIME + " FAKETIME=\"$(cat ./" + CLOCK_FILE + ")\" FAKETIME_DONT_FAKE_MONOTONIC=1 \\",
                "    exec " + java + " \"$@\"",
                "fi",
                "exec " + java + " \"$@\"", ""), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    public Flavour flavour() {
        return flavour;
    }

    public LocalCluster cluster() {
        return cluster;
    }

    public Network network() {
        return network;
    }

    public List<Integer> ids() {
        return cluster.ids();
    }

    public boolean clockFaultsAvailable() {
        return clockFaults;
    }

    public MemberProcess member(int id) {
        return cluster.member(id);
    }

    public Optional<Integer> leader() {
        return cluster.leader();
    }

    public MemberMode mode(int id) {
        return cluster.mode(id);
    }

    /** NETNS when the members run in namespaces of their own, else RELAY. */
    public NetworkMode networkMode() {
        return network.namespaces().isPresent() ? NetworkMode.NETNS : NetworkMode.RELAY;
    }

    /** Client connect string straight to the members. */
    public String connectString() {
        return cluster.connectString();
    }

    /** Writes the disk fault words (see DiskFaultControl) for a Warden member; journaling stays on. */
    public void setDiskFaults(int id, String words) throws IOException {
        requireWarden("disk faults");
        Files.writeString(member(id).dir().resolve(DISK_CONTROL_FILE), ("journal " + words).trim() + "\n");
    }

    /** Takes back the writes a stopped Warden member never fsynced; how many. */
    public int loseUnsyncedWrites(int id) throws IOException {
        requireWarden("losing unsynced writes");
        return UnsyncedWriteJournal.undo(member(id).dir().resolve(DiskFaultControl.JOURNAL_FILE));
    }

    /**
     * libfaketime's offset for the member's wall clock from its next start: "-300", "+120",
     * "+0 x1.5" (a clock running one and a half times as fast); empty for the true clock.
     */
    public void setClockForNextStart(int id, String offsetSpec) throws IOException {
        if (!clockFaults) {
            throw new IllegalStateException("clock faults need " + LIBFAKETIME + " (apt-get install faketime)");
        }
        Files.writeString(member(id).dir().resolve(CLOCK_FILE), offsetSpec);
    }

    private void requireWarden(String what) {
        if (flavour != Flavour.WARDEN) {
            throw new IllegalStateException(what + " need Warden's fault-injecting storage; " + flavour + " has none");
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            cluster.close();
        } finally {
            network.close();
        }
    }
}

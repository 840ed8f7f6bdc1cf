package dev.warden.bench.compare;

import dev.warden.bench.ExitCleanup;
import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.FreePorts;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Starts an ensemble through the local cluster launcher, with the benchmark's common settings. */
final class EnsembleLauncher {
    private EnsembleLauncher() {
    }

    /** @param tls the stores when {@code topology} is a TLS one, else null */
    static Deployment start(Flavour flavour, Topology topology, Path dir, JvmSettings jvm, long readyTimeoutMs,
                            TlsMaterial tls) throws IOException, InterruptedException, DeploymentUnavailableException {
        ClusterSpec.Builder spec = ClusterSpec.builder(flavour,
                        dir.resolve(flavour.name().toLowerCase() + "-" + topology.members()), jvm.classPath())
                .participants(topology.members())
                .javaExecutable(jvm.javaExecutable())
                .jvmOptions(Deployment.memberJvmOptions(jvm))
                .tickTimeMs(MemberConfig.TICK_TIME_MS);
        // the launcher writes its own whitelist line; ours (every word) comes later and wins
        MemberConfig.commonLines(flavour, jvm.juteMaxBufferBytes()).forEach(spec::configLine);
        if (tls != null) {
            MemberConfig.tlsLines(flavour, tls, true).forEach(spec::configLine);
        }
        LocalCluster cluster = LocalCluster.create(spec.build());
        String connectString = tls == null ? cluster.connectString() : addSecureClientPorts(cluster);
        // the launcher kills its members at exit too, but in a hook of its own; this one runs
        // before the comparison's work directory is deleted
        ExitCleanup.Registration stopAtExit = ExitCleanup.register(flavour.title() + " " + topology.title(),
                cluster::close);
        try {
            cluster.startAll();
            cluster.awaitQuorum(Duration.ofMillis(readyTimeoutMs));
        } catch (IllegalStateException e) {
            cluster.close();
            stopAtExit.close();
            throw new DeploymentUnavailableException(flavour.title() + " " + topology.title() + ": "
                    + headline(e.getMessage()) + " (member logs under " + cluster.spec().baseDir() + ")");
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            stopAtExit.close();
            throw e;
        }
        return new Deployment(flavour, topology, connectString, Deployment.clientTls(tls), () -> {
            cluster.close();
            stopAtExit.close();
        }, () -> deadMembers(cluster), () -> cluster.ids().stream().map(id -> cluster.member(id).pid()).toList());
    }

    /**
     * Gives every member a TLS client port of its own: the launcher writes one zoo.cfg per member
     * with the lines every member shares, and the secure port is the one line that differs. Returns
     * the connect string over those ports, in member order.
     */
    private static String addSecureClientPorts(LocalCluster cluster) throws IOException {
        List<Integer> ids = cluster.ids();
        List<Integer> ports = FreePorts.pick(ids.size());
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            Path config = cluster.member(ids.get(i)).configFile();
            Files.writeString(config, "secureClientPort=" + ports.get(i) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
            hosts.add("127.0.0.1:" + ports.get(i));
        }
        return String.join(",", hosts);
    }

    /** Members the launcher started and did not stop that are no longer running. */
    private static List<String> deadMembers(LocalCluster cluster) {
        List<String> dead = new ArrayList<>();
        for (int id : cluster.ids()) {
            MemberProcess member = cluster.member(id);
            if (member.state() == MemberProcess.State.RUNNING && !member.isServingCandidate()) {
                dead.add("member " + id + " exited" + MemberDeath.hint(member.stderrFile())
                        + MemberDeath.hint(member.stdoutFile()));
            }
        }
        return dead;
    }

    /** The launcher's message up to its per-member details, which belong in a log rather than a table. */
    static String headline(String message) {
        if (message == null) {
            return "no reason given";
        }
        int details = message.length();
        for (String start : new String[] {": member 1 (", "; member 1 ("}) {
            int at = message.indexOf(start);
            if (at >= 0) {
                details = Math.min(details, at);
            }
        }
        return message.substring(0, details);
    }
}

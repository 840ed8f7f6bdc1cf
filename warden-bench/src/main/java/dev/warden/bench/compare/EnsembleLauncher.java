package dev.warden.bench.compare;

import dev.warden.cli.cluster.ClusterSpec;
import dev.warden.cli.cluster.LocalCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** Starts an ensemble through the local cluster launcher, with the benchmark's common settings. */
final class EnsembleLauncher {
    private EnsembleLauncher() {
    }

    static Deployment start(Flavour flavour, Topology topology, Path dir, JvmSettings jvm, long readyTimeoutMs)
            throws IOException, InterruptedException, DeploymentUnavailableException {
        ClusterSpec.Builder spec = ClusterSpec.builder(flavour.clusterFlavour(),
                        dir.resolve(flavour.name().toLowerCase() + "-" + topology.members()), jvm.classPath())
                .participants(topology.members())
                .javaExecutable(jvm.javaExecutable())
                .jvmOptions(Deployment.memberJvmOptions(flavour, jvm))
                .tickTimeMs(MemberConfig.TICK_TIME_MS);
        // the launcher writes its own whitelist line; ours (every word) comes later and wins
        MemberConfig.commonLines(flavour, jvm.juteMaxBufferBytes()).forEach(spec::configLine);
        LocalCluster cluster = LocalCluster.create(spec.build());
        try {
            cluster.startAll();
            cluster.awaitQuorum(Duration.ofMillis(readyTimeoutMs));
        } catch (IllegalStateException e) {
            cluster.close();
            throw new DeploymentUnavailableException(flavour.title() + " " + topology.title() + ": "
                    + headline(e.getMessage()) + " (member logs under " + cluster.spec().baseDir() + ")");
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return new Deployment(flavour, topology, cluster.connectString(), cluster::close);
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

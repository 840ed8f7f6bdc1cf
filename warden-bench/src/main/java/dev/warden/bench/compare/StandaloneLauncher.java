package dev.warden.bench.compare;

import dev.warden.bench.ExitCleanup;
import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.FreePorts;
import dev.warden.server.net.FourLetterWordClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts one standalone member (Apache's ZooKeeperServerMain or Warden's server command) as a JVM. */
final class StandaloneLauncher {
    private static final int PROBE_TIMEOUT_MS = 1000;
    private static final long STOP_GRACE_MS = 10_000;
    private static final int LOG_LINES_IN_ERRORS = 5;

    private StandaloneLauncher() {
    }

    /** @param tls the stores for a TLS deployment (load on its secure client port), or null for plaintext */
    static Deployment start(Flavour flavour, Path dir, JvmSettings jvm, long readyTimeoutMs, TlsMaterial tls)
            throws IOException, InterruptedException, DeploymentUnavailableException {
        Path memberDir = dir.resolve(flavour.name().toLowerCase() + "-standalone");
        Files.createDirectories(memberDir);
        List<Integer> ports = FreePorts.pick(tls == null ? 1 : 2);
        int clientPort = ports.get(0);
        List<String> tlsLines = new ArrayList<>();
        if (tls != null) {
            tlsLines.add("secureClientPort=" + ports.get(1));
            tlsLines.addAll(MemberConfig.tlsLines(flavour, tls, false));
        }
        Path config = MemberConfig.writeStandalone(flavour, memberDir, clientPort, jvm.juteMaxBufferBytes(), tlsLines);
        List<String> command = new ArrayList<>();
        command.add(jvm.javaExecutable().toString());
        command.addAll(Deployment.memberJvmOptions(jvm));
        command.addAll(List.of("-cp", jvm.classPath()));
        command.addAll(flavour.standaloneMainAndArguments(config.toString()));
        Path log = memberDir.resolve("server.log");
        Process process = new ProcessBuilder(command).directory(memberDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ExitCleanup.stopOnExit(flavour.title() + " standalone (pid " + process.pid() + ")", process);
        try {
            awaitStandalone(flavour, process, clientPort, log, readyTimeoutMs);
        } catch (DeploymentUnavailableException | InterruptedException | RuntimeException e) {
            stop(process);
            throw e;
        }
        Topology topology = tls == null ? Topology.STANDALONE : Topology.STANDALONE_TLS;
        String connectString = "127.0.0.1:" + (tls == null ? clientPort : ports.get(1));
        return new Deployment(flavour, topology, connectString, Deployment.clientTls(tls), () -> stop(process),
                () -> process.isAlive() ? List.of()
                        : List.of("exited with status " + process.exitValue() + MemberDeath.hint(log)),
                () -> List.of(process.pid()));
    }

    private static void awaitStandalone(Flavour flavour, Process process, int clientPort, Path log, long timeoutMs)
            throws InterruptedException, DeploymentUnavailableException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        String mode = "down";
        while (System.nanoTime() < deadlineNs) {
            if (!process.isAlive()) {
                throw new DeploymentUnavailableException(flavour.title() + " exited with status "
                        + process.exitValue() + lastLogLines(log));
            }
            mode = probeMode(clientPort);
            if (mode.equals("standalone")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new DeploymentUnavailableException(flavour.title() + " not serving within " + timeoutMs / 1000
                + " s (mode " + mode + ")" + lastLogLines(log));
    }

    private static String probeMode(int port) {
        try {
            String mode = modeIn(FourLetterWordClient.send("127.0.0.1", port, "srvr", PROBE_TIMEOUT_MS));
            return mode == null ? "not serving" : mode;
        } catch (IOException e) {
            return "down";
        }
    }

    /** The value of the "Mode:" line of a srvr answer, or null when there is none (not serving). */
    static String modeIn(String srvrAnswer) {
        for (String line : srvrAnswer.split("\n")) {
            if (line.startsWith("Mode:")) {
                return line.substring("Mode:".length()).trim();
            }
        }
        return null;
    }

    private static String lastLogLines(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "; last lines of " + log + ":\n  "
                    + String.join("\n  ", lines.subList(Math.max(0, lines.size() - LOG_LINES_IN_ERRORS), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static void stop(Process process) throws InterruptedException {
        ExitCleanup.stopProcess(process, STOP_GRACE_MS);
    }
}

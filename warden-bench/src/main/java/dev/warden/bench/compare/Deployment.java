package dev.warden.bench.compare;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One flavour in one topology, each member a JVM of its own on loopback, serving once
 * {@link #start} returns. Closing it stops the members (SIGTERM, then SIGKILL after a grace).
 */
public final class Deployment implements AutoCloseable {
    private static final int PROBE_TIMEOUT_MS = 1000;
    private static final long STOP_GRACE_MS = 10_000;
    private static final int LOG_LINES_IN_ERRORS = 5;

    private final Flavour flavour;
    private final Topology topology;
    private final List<Process> members;
    private final List<Path> logs;
    private final int[] clientPorts;

    private Deployment(Flavour flavour, Topology topology, List<Process> members, List<Path> logs, int[] clientPorts) {
        this.flavour = flavour;
        this.topology = topology;
        this.members = members;
        this.logs = logs;
        this.clientPorts = clientPorts;
    }

    /** Starts every member under {@code dir} and waits until all serve in the expected mode. */
    public static Deployment start(Flavour flavour, Topology topology, Path dir, JvmSettings jvm, long readyTimeoutMs)
            throws IOException, InterruptedException, DeploymentUnavailableException {
        int n = topology.members();
        int[] ports = freePorts(3 * n);
        int[] clientPorts = java.util.Arrays.copyOfRange(ports, 0, n);
        int[] quorumPorts = java.util.Arrays.copyOfRange(ports, n, 2 * n);
        int[] electionPorts = java.util.Arrays.copyOfRange(ports, 2 * n, 3 * n);
        List<Process> processes = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        Deployment deployment = new Deployment(flavour, topology, processes, logs, clientPorts);
        try {
            for (int id = 1; id <= n; id++) {
                Path memberDir = dir.resolve(flavour.name().toLowerCase() + "-" + id);
                Files.createDirectories(memberDir);
                Path config = MemberConfig.write(flavour, topology, id, memberDir, clientPorts, quorumPorts,
                        electionPorts, jvm.juteMaxBufferBytes());
                List<String> command = new ArrayList<>(List.of(jvm.javaExecutable().toString(),
                        "-Xms" + jvm.heapMb() + "m", "-Xmx" + jvm.heapMb() + "m"));
                command.addAll(flavour.jvmOptions(jvm.juteMaxBufferBytes()));
                command.addAll(List.of("-cp", jvm.classPath()));
                command.addAll(flavour.mainAndArguments(topology, config.toString()));
                Path log = memberDir.resolve("server.log");
                logs.add(log);
                processes.add(new ProcessBuilder(command).directory(memberDir.toFile())
                        .redirectErrorStream(true).redirectOutput(log.toFile()).start());
            }
            deployment.awaitServing(readyTimeoutMs);
            return deployment;
        } catch (IOException | InterruptedException | DeploymentUnavailableException | RuntimeException e) {
            deployment.close();
            throw e;
        }
    }

    public Flavour flavour() {
        return flavour;
    }

    public Topology topology() {
        return topology;
    }

    /** Every member's client address, so sessions spread over the members as clients' would. */
    public String connectString() {
        return java.util.Arrays.stream(clientPorts).mapToObj(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    private void awaitServing(long timeoutMs) throws InterruptedException, DeploymentUnavailableException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Set<String> wanted = topology == Topology.STANDALONE ? Set.of("standalone") : Set.of("leader", "follower");
        List<String> modes = List.of();
        while (System.nanoTime() < deadlineNs) {
            modes = new ArrayList<>();
            for (int i = 0; i < members.size(); i++) {
                Process member = members.get(i);
                if (!member.isAlive()) {
                    throw new DeploymentUnavailableException(flavour.title() + " member " + (i + 1) + " exited with status "
                            + member.exitValue() + lastLogLines(i));
                }
                modes.add(probeMode(clientPorts[i]));
            }
            if (topology != Topology.STANDALONE && modes.contains("standalone")) {
                throw new DeploymentUnavailableException(flavour.title() + " members run standalone: this build has"
                        + " no " + topology.title() + " mode");
            }
            if (modes.stream().allMatch(wanted::contains)
                    && (topology == Topology.STANDALONE || modes.stream().filter("leader"::equals).count() == 1)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new DeploymentUnavailableException(flavour.title() + " " + topology.title() + " not serving within "
                + timeoutMs / 1000 + " s (modes " + modes + ")" + lastLogLines(0));
    }

    /** The member's mode from srvr, or "down" when it cannot say yet. */
    private static String probeMode(int port) {
        try {
            String mode = FourLetterWord.mode(FourLetterWord.ask("127.0.0.1", port, "srvr", PROBE_TIMEOUT_MS));
            return mode == null ? "not serving" : mode;
        } catch (IOException e) {
            return "down";
        }
    }

    private String lastLogLines(int member) {
        try {
            List<String> lines = Files.readAllLines(logs.get(member), StandardCharsets.UTF_8);
            return "; last lines of " + logs.get(member) + ":\n  "
                    + String.join("\n  ", lines.subList(Math.max(0, lines.size() - LOG_LINES_IN_ERRORS), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static int[] freePorts(int count) throws IOException {
        // all sockets stay open until every port is chosen, so no port is handed out twice
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0);
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        members.forEach(Process::destroy);
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_GRACE_MS);
        for (Process member : members) {
            long leftMs = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()));
            if (!member.waitFor(leftMs, TimeUnit.MILLISECONDS)) {
                member.destroyForcibly().waitFor();
            }
        }
    }
}

package dev.warden.bench.etcd;

import dev.warden.bench.ExitCleanup;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * etcd members started as processes on loopback, each with its data directory under one work
 * directory, serving once {@link #start} returns; {@link #close} kills them. A member's output
 * goes to {@code etcd.log} beside its data directory.
 */
public final class EtcdCluster implements AutoCloseable {
    /** etcd has no reason to linger: its data directories are thrown away after the run. */
    private static final long STOP_GRACE_MS = 2_000;
    private static final long POLL_INTERVAL_MS = 100;

    private final List<EtcdMember> members;
    private final List<Process> processes;
    private final List<ExitCleanup.Registration> stopAtExit;

    private EtcdCluster(List<EtcdMember> members, List<Process> processes, List<ExitCleanup.Registration> stopAtExit) {
        this.members = List.copyOf(members);
        this.processes = List.copyOf(processes);
        this.stopAtExit = List.copyOf(stopAtExit);
    }

    /** Starts {@code memberCount} members under {@code dir} and waits until every one reports healthy. */
    public static EtcdCluster start(int memberCount, Path dir, long readyTimeoutMs)
            throws IOException, InterruptedException {
        if (memberCount < 1) {
            throw new IllegalArgumentException("an etcd cluster needs at least one member, not " + memberCount);
        }
        Path binary = EtcdBinary.locate();
        List<EtcdMember> members = new ArrayList<>();
        for (int i = 1; i <= memberCount; i++) {
            members.add(new EtcdMember("etcd" + i, freePort(), freePort(), dir.resolve("etcd" + i).resolve("data")));
        }
        List<Process> processes = new ArrayList<>();
        List<ExitCleanup.Registration> registrations = new ArrayList<>();
        String token = "warden-bench-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        try {
            for (EtcdMember member : members) {
                Files.createDirectories(member.dataDir().getParent());
                Process process = new ProcessBuilder(member.arguments(binary, members, token))
                        .redirectErrorStream(true)
                        .redirectOutput(logOf(member).toFile())
                        .start();
                processes.add(process);
                registrations.add(ExitCleanup.stopOnExit("etcd member " + member.name(), process));
            }
            EtcdCluster started = new EtcdCluster(members, processes, registrations);
            started.awaitHealthy(readyTimeoutMs);
            return started;
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the members started so far, killed before the failure is reported
            new EtcdCluster(members, processes, registrations).close();
            throw e;
        }
    }

    /** The client URLs, one per member, as jetcd takes them. */
    public List<String> endpoints() {
        return members.stream().map(EtcdMember::clientUrl).toList();
    }

    public int size() {
        return members.size();
    }

    /** Members that exited on their own, each with the last line of its log; empty while all run. */
    public List<String> deadMembers() {
        List<String> dead = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            if (!processes.get(i).isAlive()) {
                dead.add(members.get(i).name() + " exited with status " + processes.get(i).exitValue() + ": "
                        + lastLogLine(members.get(i)));
            }
        }
        return dead;
    }

    private void awaitHealthy(long readyTimeoutMs) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadlineNs = System.nanoTime() + readyTimeoutMs * 1_000_000;
        for (EtcdMember member : members) {
            HttpRequest health = HttpRequest.newBuilder(URI.create(member.clientUrl() + "/health"))
                    .timeout(Duration.ofSeconds(2)).build();
            while (true) {
                if (!deadMembers().isEmpty()) {
                    throw new EtcdUnavailableException("etcd did not start: " + String.join("; ", deadMembers()));
                }
                try {
                    HttpResponse<String> answer = http.send(health, HttpResponse.BodyHandlers.ofString());
                    // {"health":"true"} once the member has a leader and can serve
                    if (answer.statusCode() == 200 && answer.body().contains("\"true\"")) {
                        break;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                if (System.nanoTime() > deadlineNs) {
                    throw new EtcdUnavailableException(member.name() + " not healthy after " + readyTimeoutMs
                            + " ms; its log: " + logOf(member));
                }
                Thread.sleep(POLL_INTERVAL_MS);
            }
        }
    }

    private static Path logOf(EtcdMember member) {
        return member.dataDir().getParent().resolve("etcd.log");
    }

    private static String lastLogLine(EtcdMember member) {
        try {
            List<String> lines = Files.readAllLines(logOf(member), StandardCharsets.UTF_8);
            return lines.isEmpty() ? "(empty log)" : lines.get(lines.size() - 1);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Kills every member (SIGTERM, then SIGKILL after a moment). */
    @Override
    public void close() throws InterruptedException {
        for (Process process : processes) {
            ExitCleanup.stopProcess(process, STOP_GRACE_MS);
        }
        stopAtExit.forEach(ExitCleanup.Registration::close);
    }
}

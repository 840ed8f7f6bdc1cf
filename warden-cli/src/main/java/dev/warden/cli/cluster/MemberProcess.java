package dev.warden.cli.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One member of a local ensemble: its directory, ports and (while started) its JVM. Output is
 * appended to {@code stdout.log}/{@code stderr.log} in the member directory across restarts, so
 * the history of a member that failed is all in one place.
 */
public final class MemberProcess {
    /** What this side did last; the process may still have died on its own. */
    public enum State { NEVER_STARTED, RUNNING, PAUSED, STOPPED }

    private final int id;
    private final MemberPorts ports;
    /** The address the member listens on, as reached from this process. */
    private final String host;
    private final Path dir;
    private final Path configFile;
    private final ClusterSpec spec;
    private Process process;
    private State state = State.NEVER_STARTED;

    MemberProcess(int id, MemberPorts ports, String host, Path dir, Path configFile, ClusterSpec spec) {
        this.id = id;
        this.ports = ports;
        this.host = host;
        this.dir = dir;
        this.configFile = configFile;
        this.spec = spec;
    }

    public int id() {
        return id;
    }

    public MemberPorts ports() {
        return ports;
    }

    public Path dir() {
        return dir;
    }

    public Path dataDir() {
        return dir.resolve("data");
    }

    public Path configFile() {
        return configFile;
    }

    public Path stdoutFile() {
        return dir.resolve("stdout.log");
    }

    public Path stderrFile() {
        return dir.resolve("stderr.log");
    }

    public String host() {
        return host;
    }

    public String connectString() {
        return host + ":" + ports.clientPort();
    }

    public synchronized State state() {
        return state;
    }

    /** Running and not paused, as far as this side knows, and the JVM has not exited. */
    public synchronized boolean isServingCandidate() {
        return state == State.RUNNING && process.isAlive();
    }

    public synchronized long pid() {
        requireStarted();
        return process.pid();
    }

    /** The full member command line: java, JVM options, flavour properties, main class, arguments. */
    List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(spec.javaExecutable().toString());
        command.addAll(spec.jvmOptions());
        command.addAll(spec.flavour().systemProperties());
        command.add("-cp");
        command.add(spec.classPath());
        command.add(spec.flavour().mainClass());
        command.addAll(spec.flavour().programArguments(configFile));
        return command;
    }

    synchronized void start() throws IOException {
        if (state == State.RUNNING || state == State.PAUSED) {
            throw new IllegalStateException("member " + id + " is already " + state);
        }
        Files.createDirectories(dir);
        process = new ProcessBuilder(command())
                .directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.appendTo(stdoutFile().toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(stderrFile().toFile()))
                .start();
        state = State.RUNNING;
    }

    /** SIGKILL (also ends a paused JVM); waits until the process is gone. */
    synchronized void kill9() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor();
        }
        state = State.STOPPED;
    }

    /** SIGTERM and wait for a clean exit; past the timeout, SIGKILL and report it. */
    synchronized void stop(Duration timeout) throws InterruptedException {
        requireStarted();
        if (state == State.PAUSED) {
            // a stopped JVM cannot run its shutdown hooks until it is continued
            signal("CONT");
        }
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            state = State.STOPPED;
            throw new IllegalStateException("member " + id + " ignored SIGTERM for " + timeout + "; killed it");
        }
        state = State.STOPPED;
    }

    /** SIGSTOP: the JVM freezes with its sockets open, like a long GC pause or a hung host. */
    synchronized void pause() throws InterruptedException {
        if (state != State.RUNNING) {
            throw new IllegalStateException("member " + id + " is " + state + ", cannot pause it");
        }
        signal("STOP");
        state = State.PAUSED;
    }

    /** SIGCONT. */
    synchronized void resume() throws InterruptedException {
        if (state != State.PAUSED) {
            throw new IllegalStateException("member " + id + " is " + state + ", not paused");
        }
        signal("CONT");
        state = State.RUNNING;
    }

    private void signal(String name) throws InterruptedException {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes());
            int exit = kill.waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed (" + exit + "): "
                        + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + name + " for member " + id, e);
        }
    }

    private void requireStarted() {
        if (process == null) {
            throw new IllegalStateException("member " + id + " was never started");
        }
    }

    /** True if this side started the JVM, did not stop it, and it exited by itself. */
    public synchronized boolean died() {
        return state == State.RUNNING && process != null && !process.isAlive();
    }

    /** Exit code if the JVM has exited (and, if it died, the last line it wrote to stderr), for messages. */
    public synchronized String describe() {
        if (died()) {
            return "member " + id + " (DIED, exit status " + process.exitValue() + lastErrorLine() + "; client "
                    + connectString() + ", logs " + stdoutFile() + " and " + stderrFile() + ")";
        }
        String status = process == null ? "never started"
                : process.isAlive() ? "pid " + process.pid() : "exited " + process.exitValue();
        return "member " + id + " (" + state + ", " + status + ", client " + connectString() + adminUrlPart()
                + ", logs " + stdoutFile() + " and " + stderrFile() + ")";
    }

    /** The member's AdminServer address, when the cluster gave it a port of its own. */
    public java.util.Optional<String> adminUrl() {
        return ports.adminPort() == 0 ? java.util.Optional.empty()
                : java.util.Optional.of("http://" + host + ":" + ports.adminPort() + "/commands");
    }

    private String adminUrlPart() {
        return adminUrl().map(url -> ", admin " + url).orElse("");
    }

    private String lastErrorLine() {
        try {
            List<String> lines = Files.readAllLines(stderrFile());
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    return ": " + lines.get(i).strip();
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // the log is gone or unreadable: the path is still shown
        }
        return "";
    }
}

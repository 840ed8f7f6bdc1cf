package dev.warden.cli.ensemble;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * A client in its own JVM that creates ephemeral nodes and then idles, so a test can freeze the
 * whole client (SIGSTOP) and watch the ensemble expire its session. Run as
 * {@code EphemeralHolder <connectString> <sessionTimeoutMs> <parentPath> <count>}; prints
 * {@code READY <sessionId in hex>} once the nodes exist.
 */
public final class EphemeralHolder {
    static final String READY = "READY ";

    private EphemeralHolder() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: EphemeralHolder <connectString> <sessionTimeoutMs> <parentPath> <count>");
            System.exit(2);
        }
        ZooKeeper zk = Ensembles.connect(args[0], Integer.parseInt(args[1]));
        String parent = args[2];
        for (int i = 0; i < Integer.parseInt(args[3]); i++) {
            zk.create(parent + "/e" + i, ("held by 0x" + Long.toHexString(zk.getSessionId()))
                    .getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
        }
        System.out.println(READY + Long.toHexString(zk.getSessionId()));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** The holder as a child process of the test, with its output in {@code outputFile}. */
    static final class Handle implements AutoCloseable {
        private final Process process;
        private final Path outputFile;

        private Handle(Process process, Path outputFile) {
            this.process = process;
            this.outputFile = outputFile;
        }

        static Handle start(String connectString, int sessionTimeoutMs, String parent, int count, Path outputFile)
                throws IOException {
            String java = ProcessHandle.current().info().command().orElseThrow();
            List<String> command = new ArrayList<>(List.of(java, "-Xmx64m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-cp", ManagementFactory.getRuntimeMXBean().getClassPath(),
                    EphemeralHolder.class.getName(), connectString, Integer.toString(sessionTimeoutMs), parent,
                    Integer.toString(count)));
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(outputFile.toFile()).start();
            return new Handle(process, outputFile);
        }

        /** The session id once the holder's nodes exist. */
        long awaitReady(Duration timeout) throws IOException, InterruptedException {
            long deadlineNs = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadlineNs) {
                for (String line : Files.readAllLines(outputFile, StandardCharsets.UTF_8)) {
                    if (line.startsWith(READY)) {
                        return Long.parseUnsignedLong(line.substring(READY.length()).trim(), 16);
                    }
                }
                if (!process.isAlive()) {
                    throw new AssertionError("ephemeral holder exited " + process.exitValue() + ", see " + outputFile);
                }
                Thread.sleep(50);
            }
            throw new AssertionError("ephemeral holder not ready within " + timeout + ", see " + outputFile);
        }

        void signal(String name) throws IOException, InterruptedException {
            int exit = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
            if (exit != 0) {
                throw new AssertionError("kill -" + name + " of the ephemeral holder failed: " + exit);
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}

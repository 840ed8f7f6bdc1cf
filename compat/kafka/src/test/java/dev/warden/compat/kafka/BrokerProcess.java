package dev.warden.compat.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * One Kafka broker in ZooKeeper mode, in its own JVM started from this test's class path
 * ({@code kafka.Kafka server.properties}, as kafka-server-start.sh runs it), so that killing it
 * is a real process death: its ZooKeeper session is only expired by the ensemble after
 * {@code zookeeper.session.timeout.ms}.
 */
final class BrokerProcess implements AutoCloseable {
    private final int brokerId;
    private final int port;
    private final Path dir;
    private final Process process;

    private BrokerProcess(int brokerId, int port, Path dir, Process process) {
        this.brokerId = brokerId;
        this.port = port;
        this.dir = dir;
        this.process = process;
    }

    static BrokerProcess start(int brokerId, int port, String zookeeperConnect, Path baseDir) {
        try {
            Path dir = Files.createDirectories(baseDir.resolve("broker-" + brokerId));
            Properties config = new Properties();
            config.setProperty("broker.id", Integer.toString(brokerId));
            config.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port);
            config.setProperty("log.dirs", dir.resolve("logs").toString());
            config.setProperty("zookeeper.connect", zookeeperConnect);
            config.setProperty("zookeeper.session.timeout.ms", "6000");
            config.setProperty("zookeeper.connection.timeout.ms", "30000");
            config.setProperty("offsets.topic.replication.factor", "2");
            config.setProperty("offsets.topic.num.partitions", "2");
            config.setProperty("transaction.state.log.replication.factor", "2");
            config.setProperty("transaction.state.log.min.isr", "1");
            config.setProperty("group.initial.rebalance.delay.ms", "0");
            config.setProperty("controlled.shutdown.enable", "false");
            config.setProperty("authorizer.class.name", "kafka.security.authorizer.AclAuthorizer");
            config.setProperty("allow.everyone.if.no.acl.found", "true");
            config.setProperty("super.users", "User:ANONYMOUS");
            config.setProperty("log.segment.bytes", "1048576");
            Path file = dir.resolve("server.properties");
            try (Writer out = Files.newBufferedWriter(file)) {
                config.store(out, null);
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx320m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                    "-cp", System.getProperty("java.class.path"), "kafka.Kafka", file.toString()));
            builder.redirectErrorStream(true).redirectOutput(dir.resolve("broker.log").toFile());
            return new BrokerProcess(brokerId, port, dir, builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("broker " + brokerId + " did not start", e);
        }
    }

    int brokerId() {
        return brokerId;
    }

    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The last lines of its log, for failure messages. */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("broker.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** SIGKILL: the process dies at once, with no chance to tell anyone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}

package dev.warden.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball as an operator uses it: unpacked, a server started with bin/zkServer.sh start
 * (configuration from ZOOCFGDIR, output into ZOO_LOG_DIR, SERVER_JVMFLAGS on its command line,
 * its beans read over the remote JMX port JMXPORT opens, none with JMXDISABLE),
 * asked for its status, written and read with bin/zkCli.sh, and stopped.
 */
class DistributionTest {
    @TempDir
    Path dir;

    private Path home;
    private Map<String, String> environment;

    /** The exit status and the output (stdout and stderr together) of one script run. */
    private record Run(int exit, String output) {
    }

    private Run run(String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @AfterEach
    void stopIfLeftRunning() throws Exception {
        if (home != null) {
            run(home.resolve("bin/zkServer.sh").toString(), "stop");
        }
    }

    @Test
    void theTarballStartsServesAndStopsLikeZooKeepersScripts() throws Exception {
        Path tarball = Path.of(System.getProperty("warden.dist.tarball"));
        assertTrue(Files.isRegularFile(tarball), tarball + " was built in the package phase");
        Process untar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", dir.toString()).inheritIO().start();
        assertEquals(0, untar.waitFor());
        try (Stream<Path> unpacked = Files.list(dir)) {
            home = unpacked.filter(p -> p.getFileName().toString().startsWith("warden-")).findFirst().orElseThrow();
        }
        for (String file : List.of("bin/warden", "bin/zkServer.sh", "bin/zkCli.sh", "bin/zkEnv.sh", "conf/zoo.cfg",
                "conf/logback.xml", "systemd/warden.service", "README.md")) {
            assertTrue(Files.exists(home.resolve(file)), file);
        }
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            assertTrue(jars.anyMatch(p -> p.getFileName().toString().startsWith("warden-cli-")), "lib/ holds the jars");
        }

        int port = freePort();
        Path conf = Files.createDirectories(dir.resolve("my-conf"));
        Files.writeString(conf.resolve("zoo.cfg"), "tickTime=2000\ndataDir=" + dir.resolve("data") + "\nclientPort="
                + port + "\nclientPortAddress=127.0.0.1\n");
        int jmxPort = freePort();
        environment = new HashMap<>(Map.of("JAVA_HOME", System.getProperty("java.home"), "ZOOCFGDIR", conf.toString(),
                "ZOO_LOG_DIR", dir.resolve("my-logs").toString(), "SERVER_JVMFLAGS", "-Dwarden.dist.test=yes -Xss1m",
                "ZK_SERVER_HEAP", "256", "JMXPORT", Integer.toString(jmxPort)));
        String zkServer = home.resolve("bin/zkServer.sh").toString();
        String zkCli = home.resolve("bin/zkCli.sh").toString();

        Run version = run(home.resolve("bin/warden").toString(), "version");
        assertEquals(0, version.exit(), version.output());
        assertTrue(version.output().startsWith("Warden "), version.output());

        Run zkServerVersion = run(zkServer, "version");
        assertEquals(0, zkServerVersion.exit(), zkServerVersion.output());
        assertTrue(zkServerVersion.output().lines().anyMatch(line -> line.startsWith("Warden ")), zkServerVersion.output());

        Run printCmd = run(zkServer, "print-cmd");
        assertTrue(printCmd.output().contains("-Dwarden.dist.test=yes -Xss1m"), printCmd.output());
        assertTrue(printCmd.output().contains(conf.resolve("zoo.cfg").toString()), printCmd.output());

        Run start = run(zkServer, "start");
        assertEquals(0, start.exit(), start.output());
        assertTrue(start.output().contains("Starting warden ... STARTED"), start.output());
        assertTrue(Files.exists(dir.resolve("data/zookeeper_server.pid")));
        assertTrue(start.output().contains("Warden remote JMX port set to " + jmxPort), start.output());
        JMXServiceURL remote = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
        try (JMXConnector jmx = JMXConnectorFactory.connect(remote)) {
            ObjectName server = new ObjectName("org.apache.ZooKeeperService:name0=StandaloneServer_port" + port);
            assertEquals(Integer.toString(port), jmx.getMBeanServerConnection().getAttribute(server, "ClientPort"));
        }
        Run again = run(zkServer, "start");
        assertEquals(1, again.exit(), again.output());
        assertTrue(again.output().contains("already running as process"), again.output());

        Run status = run(zkServer, "status");
        assertEquals(0, status.exit(), status.output());
        assertTrue(status.output().contains("Mode: standalone"), status.output());

        Run create = run(zkCli, "-server", "127.0.0.1:" + port, "create", "/hello", "world");
        assertEquals(0, create.exit(), create.output());
        Run get = run(zkCli, "-server", "127.0.0.1:" + port, "get", "/hello");
        assertEquals(0, get.exit(), get.output());
        assertTrue(get.output().lines().anyMatch("world"::equals), get.output());

        environment.put("JMXDISABLE", "true");
        Run noJmx = run(zkServer, "print-cmd");
        assertTrue(noJmx.output().contains("JMX disabled by user request"), noJmx.output());
        assertFalse(noJmx.output().contains("jmxremote"), noJmx.output());
        environment.remove("JMXDISABLE");

        Run stop = run(zkServer, "stop");
        assertEquals(0, stop.exit(), stop.output());
        assertTrue(stop.output().contains("Stopping warden ... STOPPED"), stop.output());
        assertFalse(Files.exists(dir.resolve("data/zookeeper_server.pid")));
        Run stopped = run(zkServer, "status");
        assertEquals(1, stopped.exit(), stopped.output());
        assertTrue(stopped.output().contains("It is probably not running"), stopped.output());

        try (Stream<Path> logs = Files.list(dir.resolve("my-logs"))) {
            Path out = logs.filter(p -> p.getFileName().toString().endsWith(".out")).findFirst().orElseThrow();
            String text = Files.readString(out);
            assertTrue(text.contains("Warden serving on 127.0.0.1:" + port), text);
            assertTrue(text.contains("Warden stopped"), text);
        }
        // the rolling log file, as ZooKeeper's script names it through -Dzookeeper.log.dir and .file
        try (Stream<Path> logs = Files.list(dir.resolve("my-logs"))) {
            Path log = logs.filter(p -> p.getFileName().toString().matches("warden-.*-server-.*\\.log"))
                    .findFirst().orElseThrow();
            String text = Files.readString(log);
            assertTrue(text.contains("serving on 127.0.0.1:" + port), text);
        }
        home = null;
    }
}

package dev.warden.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/** The default logback.xml: stderr always, a rolling file in the log directory when one is given. */
class LoggingConfigurationTest {
    @TempDir
    Path logDir;
    private String statuses = "";

    private static LoggerContext configure(Map<String, String> properties) throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        properties.forEach(context::putProperty);
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(LoggingConfigurationTest.class.getResource("/logback.xml"));
        return context;
    }

    @Test
    void aLogDirectoryGetsARollingFileWithZooKeepersProperties() throws Exception {
        LoggerContext context = configure(Map.of("zookeeper.log.dir", logDir.toString(),
                LogSetup.FILE_APPENDER_PROPERTY, "ROLLINGFILE", "zookeeper.log.file", "warden-test.log",
                "zookeeper.log.maxfilesize", "2KB", "zookeeper.log.maxbackupindex", "3",
                "zookeeper.console.threshold", "ERROR"));
        try {
            Logger log = context.getLogger("dev.warden.test");
            for (int i = 0; i < 400; i++) {
                log.info("line {} of a log that outgrows its file", i);
            }
        } finally {
            statuses = context.getStatusManager().getCopyOfStatusList().toString();
            context.stop();
        }
        String current = Files.readString(logDir.resolve("warden-test.log"), StandardCharsets.UTF_8);
        assertTrue(current.contains("INFO  test - line 399 of a log"), current + " / " + describe(logDir) + statuses);
        try (Stream<Path> files = Files.list(logDir)) {
            assertEquals(4, files.filter(f -> f.getFileName().toString().startsWith("warden-test.log")).count(),
                    "the file and maxbackupindex rolled ones");
        }
        assertTrue(Files.exists(logDir.resolve("warden-test.log.3")));
        assertFalse(Files.exists(logDir.resolve("warden-test.log.4")));
    }

    private static String describe(Path dir) throws java.io.IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName() + "=" + f.toFile().length()).sorted().toList().toString();
        }
    }

    @Test
    void withoutALogDirectoryNothingIsWritten() throws Exception {
        LoggerContext context = configure(Map.of("zookeeper.console.threshold", "ERROR"));
        try {
            context.getLogger("dev.warden.test").info("to stderr only");
            assertTrue(context.getStatusManager().getCopyOfStatusList().stream()
                    .noneMatch(status -> status.getLevel() >= ch.qos.logback.core.status.Status.WARN),
                    context.getStatusManager().getCopyOfStatusList().toString());
        } finally {
            context.stop();
        }
        try (Stream<Path> files = Files.list(logDir)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void zooLogDirTurnsTheFileOnAsZooKeepersScriptsDo() {
        Properties system = new Properties();
        LogSetup.prepare(system, Map.of("ZOO_LOG_DIR", "/var/log/warden"));
        assertEquals("/var/log/warden", system.getProperty("zookeeper.log.dir"));
        assertEquals("ROLLINGFILE", system.getProperty(LogSetup.FILE_APPENDER_PROPERTY));
        Properties none = new Properties();
        LogSetup.prepare(none, Map.of());
        assertEquals(null, none.getProperty(LogSetup.FILE_APPENDER_PROPERTY));
        Properties explicit = new Properties();
        explicit.setProperty("zookeeper.log.dir", "/srv/logs");
        LogSetup.prepare(explicit, Map.of("ZOO_LOG_DIR", "/var/log/warden"));
        assertEquals("/srv/logs", explicit.getProperty("zookeeper.log.dir"), "the JVM flag wins over the environment");
    }

    @Test
    void theAuditLogGoesToAFileOfItsOwn() throws Exception {
        LoggerContext context = configure(Map.of("zookeeper.log.dir", logDir.toString(),
                LogSetup.FILE_APPENDER_PROPERTY, "ROLLINGFILE", "zookeeper.console.threshold", "ERROR"));
        try {
            context.getLogger("dev.warden.audit").info("user=root\toperation=serverStart\tresult=success");
            context.getLogger("dev.warden.server").info("an ordinary line");
        } finally {
            context.stop();
        }
        String audit = Files.readString(logDir.resolve("warden_audit.log"), StandardCharsets.UTF_8);
        String server = Files.readString(logDir.resolve("warden-server.log"), StandardCharsets.UTF_8);
        assertTrue(audit.contains("audit: user=root\toperation=serverStart\tresult=success"), audit);
        assertFalse(audit.contains("an ordinary line"), audit);
        assertFalse(server.contains("serverStart"), server);
    }
}

package dev.warden.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Logging for the tools that run on warden-cli's class path and so share its logback.xml (the
 * benchmark, the chaos runner): warnings and errors only, unless the operator chose a level with
 * {@code -Dzookeeper.log.threshold}, so their progress output is not drowned; and levels of
 * their own for a few loggers (the Apache client's reconnect stack traces, say).
 */
public final class ToolLogging {
    /** The property logback.xml reads for the root level. */
    static final String THRESHOLD_PROPERTY = "zookeeper.log.threshold";

    private ToolLogging() {
    }

    /** Call first thing in a tool's main, before anything logs: the threshold is read as logging starts. */
    public static void quiet(Map<String, String> loggerLevels) {
        if (System.getProperty(THRESHOLD_PROPERTY) == null) {
            System.setProperty(THRESHOLD_PROPERTY, "WARN");
        }
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            loggerLevels.forEach((name, level) -> context.getLogger(name).setLevel(Level.toLevel(level)));
        }
    }
}

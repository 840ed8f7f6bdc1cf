package dev.warden.cli;

import java.util.Map;
import java.util.Properties;

/**
 * Chooses where the log goes before anything logs (logback.xml reads the properties set here):
 * a log directory from {@code -Dzookeeper.log.dir} or, as ZooKeeper's scripts take it, the
 * {@code ZOO_LOG_DIR} environment variable, turns on the rolling log file beside stderr.
 */
final class LogSetup {
    static final String LOG_DIR_PROPERTY = "zookeeper.log.dir";
    static final String LOG_DIR_ENV = "ZOO_LOG_DIR";
    static final String FILE_APPENDER_PROPERTY = "warden.log.file.appender";

    private LogSetup() {
    }

    /** Sets the properties logback.xml reads; call before the first logger is created. */
    static void prepare(Properties system, Map<String, String> environment) {
        String dir = system.getProperty(LOG_DIR_PROPERTY);
        if (dir == null || dir.isBlank()) {
            dir = environment.get(LOG_DIR_ENV);
        }
        if (dir != null && !dir.isBlank()) {
            system.setProperty(LOG_DIR_PROPERTY, dir.trim());
            system.setProperty(FILE_APPENDER_PROPERTY, "ROLLINGFILE");
        }
    }
}

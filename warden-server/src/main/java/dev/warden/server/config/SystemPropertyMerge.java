package dev.warden.server.config;

import java.util.List;
import java.util.Properties;
import java.util.Set;

/** Adds the JVM's ZooKeeper server properties to zoo.cfg's keys, refusing one that disagrees with the file. */
final class SystemPropertyMerge {
    private SystemPropertyMerge() {
    }

    /**
     * The file's keys plus the JVM's ZooKeeper server properties the file does not hold; the
     * names taken from the JVM go in {@code fromJvm}. A property that disagrees with the file's
     * key for it ({@code zookeeper.k} and {@code k}, or the same name) stops the server: which
     * one the operator meant cannot be known.
     */
    static Properties merge(Properties file, Properties jvmProperties, Set<String> fromJvm) {
        Properties merged = new Properties();
        merged.putAll(file);
        ZooKeeperSystemProperties.select(jvmProperties).forEach((name, rawValue) -> {
            String value = rawValue.trim();
            for (String fileKey : fileSpellings(name)) {
                String inFile = file.getProperty(fileKey);
                if (inFile != null && !inFile.trim().equals(value)) {
                    throw new ConfigException(fileKey, "the system property " + ZooKeeperSystemProperties.spelled(name)
                            + "='" + value + "' and " + fileKey + "='" + inFile.trim() + "' in the config file"
                            + " disagree: they are the same setting. Remove one of them (check the JVM flags in"
                            + " SERVER_JVMFLAGS, JVMFLAGS and WARDEN_JAVA_OPTS).");
                }
            }
            if (file.getProperty(name) == null) {
                merged.setProperty(name, value);
                fromJvm.add(name);
            }
        });
        return merged;
    }

    /** The zoo.cfg keys a system property stands for: its own name, and without "zookeeper.". */
    private static List<String> fileSpellings(String propertyName) {
        return propertyName.startsWith(ZooKeeperSystemProperties.PREFIX)
                ? List.of(propertyName, propertyName.substring(ZooKeeperSystemProperties.PREFIX.length()))
                : List.of(propertyName);
    }
}

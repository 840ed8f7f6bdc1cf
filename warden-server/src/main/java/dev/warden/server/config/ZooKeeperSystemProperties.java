package dev.warden.server.config;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * The JVM system properties a ZooKeeper server reads, picked out of a JVM's properties so that
 * start scripts passing {@code -Dzookeeper.4lw.commands.whitelist=*} (in SERVER_JVMFLAGS, say)
 * configure Warden as they configured ZooKeeper. Only the config loader calls this: nothing
 * else in the server reads system properties.
 *
 * <p>ZooKeeper's server properties are {@code zookeeper.<key>} (and it turns every zoo.cfg key
 * {@code k} it does not parse itself into {@code zookeeper.k}), plus a few read without the
 * prefix. Properties ZooKeeper's client or its start scripts read are left out: they configure
 * something other than the server.
 */
final class ZooKeeperSystemProperties {
    static final String PREFIX = "zookeeper.";

    /** Server properties ZooKeeper reads without the "zookeeper." prefix. */
    static final Set<String> UNPREFIXED = Set.of(
            "jute.maxbuffer", "znode.container.checkIntervalMs", "znode.container.maxPerMinute",
            "znode.container.maxNeverUsedIntervalMs", "readonlymode.enabled", "request_throttle_drop_stale",
            "learner.closeSocketAsync", "leader.closeSocketAsync", "learner.asyncSending", "follower.nodelay",
            "leader.nodelay");

    /**
     * "zookeeper." properties that configure ZooKeeper's client, its log4j setup or its start
     * scripts, not its server. The logging ones (log dir, log file, root logger) are read by
     * Warden's logging setup, not here.
     */
    private static final Set<String> NOT_SERVER_SETTINGS = Set.of(
            "zookeeper.sasl.client", "zookeeper.sasl.clientconfig", "zookeeper.sasl.client.username",
            "zookeeper.sasl.client.canonicalize.hostname", "zookeeper.server.principal", "zookeeper.server.realm",
            "zookeeper.clientCnxnSocket", "zookeeper.client.secure", "zookeeper.request.timeout",
            "zookeeper.disableAutoWatchReset", "zookeeper.client.config", "zookeeper.log.dir", "zookeeper.log.file",
            "zookeeper.root.logger", "zookeeper.console.threshold", "zookeeper.log.threshold",
            "zookeeper.log.maxfilesize", "zookeeper.log.maxbackupindex", "zookeeper.tracelog.dir",
            "zookeeper.tracelog.file", "zookeeper.audit.log.file",
            "zookeeper.audit.log.dir");

    private ZooKeeperSystemProperties() {
    }

    /** The ZooKeeper server properties among {@code jvm}'s, by name, values as given. */
    static Map<String, String> select(Properties jvm) {
        Map<String, String> selected = new TreeMap<>();
        for (String name : jvm.stringPropertyNames()) {
            boolean serverProperty = name.startsWith(PREFIX) ? !NOT_SERVER_SETTINGS.contains(name)
                    : UNPREFIXED.contains(name);
            if (serverProperty) {
                selected.put(name, jvm.getProperty(name));
            }
        }
        return selected;
    }

    /** How an operator wrote a property: {@code -Dname}. */
    static String spelled(String name) {
        return "-D" + name;
    }
}

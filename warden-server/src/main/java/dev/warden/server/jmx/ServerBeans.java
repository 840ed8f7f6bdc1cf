package dev.warden.server.jmx;

import dev.warden.server.common.WardenVersion;
import dev.warden.server.net.AdminFigures;
import dev.warden.server.net.ServerContext;
import dev.warden.server.net.ServerStats;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers a standalone server's beans in the platform MBean server under ZooKeeper's names:
 * {@code org.apache.ZooKeeperService:name0=StandaloneServer_port<port>} and its
 * {@code name1=InMemoryDataTree}. A name already taken (another server on the port in this JVM)
 * is logged and skipped: JMX is for looking, the server runs without it.
 */
public final class ServerBeans implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ServerBeans.class);
    public static final String DOMAIN = "org.apache.ZooKeeperService";

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<ObjectName> registered = new ArrayList<>();

    ServerBeans() {
    }

    public static ServerBeans registerStandalone(ServerContext context, int port) {
        ServerBeans beans = new ServerBeans();
        String base = DOMAIN + ":name0=StandaloneServer_port" + port;
        beans.register(base, new ServerBean(context, port, new Date().toString()));
        beans.register(base + ",name1=InMemoryDataTree", new TreeBean(context));
        return beans;
    }

    void register(String name, Object bean) {
        try {
            ObjectName objectName = new ObjectName(name);
            server.registerMBean(bean, objectName);
            registered.add(objectName);
        } catch (JMException e) {
            log.warn("JMX bean {} not registered: {}", name, e.toString());
        }
    }

    /** Unregisters the beans registered under {@code name} and the names below it ({@code name,name1=...}). */
    void unregisterFrom(String name) {
        for (ObjectName objectName : new ArrayList<>(registered)) {
            String canonical = objectName.toString();
            if (canonical.equals(name) || canonical.startsWith(name + ",")) {
                try {
                    server.unregisterMBean(objectName);
                } catch (JMException gone) {
                    // unregistered meanwhile: nothing to do
                }
                registered.remove(objectName);
            }
        }
    }

    @Override
    public void close() {
        for (ObjectName name : registered) {
            try {
                server.unregisterMBean(name);
            } catch (JMException gone) {
                // unregistered meanwhile: nothing to do
            }
        }
        registered.clear();
    }

    /** A server's own bean; a member's role bean (an observer's extends it: {@link ObserverBean}). */
    static class ServerBean implements ZooKeeperServerMXBean {
        final ServerContext context;
        private final int port;
        private final String startTime;

        ServerBean(ServerContext context, int port, String startTime) {
            this.context = context;
            this.port = port;
            this.startTime = startTime;
        }

        private ServerStats stats() {
            return context.stats();
        }

        @Override
        public String getClientPort() {
            return Integer.toString(port);
        }

        @Override
        public String getVersion() {
            return WardenVersion.DESCRIPTION;
        }

        @Override
        public String getStartTime() {
            return startTime;
        }

        @Override
        public long getMinRequestLatency() {
            return stats().latency().minMs();
        }

        @Override
        public double getAvgRequestLatency() {
            return java.math.BigDecimal.valueOf(stats().latency().avgMs())
                    .setScale(4, java.math.RoundingMode.HALF_UP).doubleValue();
        }

        @Override
        public long getMaxRequestLatency() {
            return stats().latency().maxMs();
        }

        @Override
        public long getPacketsReceived() {
            return stats().packetsReceived();
        }

        @Override
        public long getPacketsSent() {
            return stats().packetsSent();
        }

        @Override
        public long getFsyncThresholdExceedCount() {
            return stats().fsyncs().slowCount();
        }

        @Override
        public long getAuthFailedCount() {
            return stats().authFailures();
        }

        @Override
        public long getOutstandingRequests() {
            return context.pipeline().outstanding();
        }

        @Override
        public int getTickTime() {
            return context.config().tickTimeMs();
        }

        @Override
        public int getMaxClientCnxnsPerHost() {
            return context.config().maxClientCnxns();
        }

        @Override
        public int getMinSessionTimeout() {
            return context.config().minSessionTimeoutMs();
        }

        @Override
        public int getMaxSessionTimeout() {
            return context.config().maxSessionTimeoutMs();
        }

        @Override
        public long getNumAliveConnections() {
            return context.registry().size();
        }

        @Override
        public long getDataDirSize() {
            return figure("datadir_size");
        }

        @Override
        public long getLogDirSize() {
            return figure("logdir_size");
        }

        private long figure(String key) {
            Map<String, Object> dirs = AdminFigures.dirs(context);
            return ((Number) dirs.get(key)).longValue();
        }

        @Override
        public int getJuteMaxBufferSize() {
            return context.config().juteMaxBuffer();
        }

        @Override
        public int getLastClientResponseSize() {
            return (int) stats().lastResponseBytes();
        }

        @Override
        public int getMinClientResponseSize() {
            return (int) stats().minResponseBytes();
        }

        @Override
        public int getMaxClientResponseSize() {
            return (int) stats().maxResponseBytes();
        }

        @Override
        public void resetStatistics() {
            stats().reset();
        }

        @Override
        public void resetLatency() {
            stats().latency().reset();
        }

        @Override
        public void resetFsyncThresholdExceedCount() {
            stats().fsyncs().resetSlowCount();
        }
    }

    record TreeBean(ServerContext context) implements DataTreeMXBean {
        @Override
        public int getNodeCount() {
            return context.stateMachine().tree().nodeCount();
        }

        @Override
        public String getLastZxid() {
            return "0x" + Long.toHexString(context.stateMachine().tree().lastAppliedZxid());
        }

        @Override
        public int getWatchCount() {
            return context.watches().watchCount();
        }

        @Override
        public long approximateDataSize() {
            return context.stateMachine().tree().approximateDataBytes();
        }

        @Override
        public int countEphemerals() {
            return context.stateMachine().tree().ephemeralCount();
        }
    }
}

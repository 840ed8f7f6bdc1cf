package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JMX beans of a standalone Warden under ZooKeeper's names, beside the beans an in-process
 * Apache ZooKeeper registers: every Warden attribute is one ZooKeeper has, and the tree's
 * figures agree after the same history.
 */
class JmxBeansDifferentialTest {
    /** ZooKeeper attributes of tuning Warden does not have (setters of its throttler, caches, batching). */
    private static final Set<String> NOT_IN_WARDEN = Set.of("ResponseCachingEnabled", "ConnectionMaxTokens",
            "ConnectionTokenFillTime", "ConnectionTokenFillCount", "ConnectionFreezeTime", "ConnectionDropIncrease",
            "ConnectionDropDecrease", "ConnectionDecreaseRatio", "CommitProcMaxReadBatchSize",
            "CommitProcMaxCommitBatchSize", "RequestThrottleLimit", "RequestThrottleStallTime",
            "RequestThrottleDropStale", "ThrottledOpWaitTime", "RequestStaleLatencyCheck",
            "RequestStaleConnectionCheck", "LargeRequestMaxBytes", "LargeRequestThreshold", "FlushDelay",
            "MaxWriteQueuePollTime", "MaxBatchSize", "MaxCnxns", "NonMTLSLocalConnCount", "NonMTLSRemoteConnCount",
            "SecureClientPort", "SecureClientAddress", "TxnLogElapsedSyncTime");

    @TempDir
    Path dir;

    @Test
    void theBeansHaveZooKeepersNamesAttributesAndFigures() throws Exception {
        MBeanServer beans = ManagementFactory.getPlatformMBeanServer();
        try (ApacheTarget apache = ApacheTarget.start(dir.resolve("apache"), Targets.superDigest());
             WardenServer warden = WardenServer.start(ServerConfig.builder().dataDir(dir.resolve("warden"))
                     .clientPort(0).build())) {
            for (String connect : new String[] {apache.connectString(), warden.connectString()}) {
                ZooKeeper zk = ApacheClients.connect(connect);
                zk.create("/j", new byte[4], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.close();
            }
            int apachePort = Integer.parseInt(apache.connectString().replaceAll(".*:", ""));
            ObjectName apacheServer = new ObjectName("org.apache.ZooKeeperService:name0=StandaloneServer_port"
                    + apachePort);
            ObjectName wardenServer = new ObjectName("org.apache.ZooKeeperService:name0=StandaloneServer_port"
                    + warden.clientPort());
            Set<String> apacheAttributes = attributes(beans, apacheServer);
            Set<String> wardenAttributes = attributes(beans, wardenServer);
            Set<String> invented = new TreeSet<>(wardenAttributes);
            invented.removeAll(apacheAttributes);
            assertEquals(Set.of(), invented, "attributes ZooKeeper does not have");
            Set<String> missing = new TreeSet<>(apacheAttributes);
            missing.removeAll(wardenAttributes);
            missing.removeAll(NOT_IN_WARDEN);
            assertEquals(Set.of(), missing, "ZooKeeper attributes Warden could give");
            assertEquals(Integer.toString(warden.clientPort()), beans.getAttribute(wardenServer, "ClientPort"));
            assertTrue(((String) beans.getAttribute(wardenServer, "Version")).startsWith("3.9.5-warden"));
            ObjectName apacheTree = new ObjectName(apacheServer + ",name1=InMemoryDataTree");
            ObjectName wardenTree = new ObjectName(wardenServer + ",name1=InMemoryDataTree");
            assertEquals(attributes(beans, apacheTree), attributes(beans, wardenTree));
            assertEquals(beans.getAttribute(apacheTree, "WatchCount"), beans.getAttribute(wardenTree, "WatchCount"));
            assertEquals(5, beans.getAttribute(wardenTree, "NodeCount"));
            assertTrue((Long) beans.invoke(wardenTree, "approximateDataSize", null, null) > 0);
            assertEquals(0, beans.invoke(wardenTree, "countEphemerals", null, null));
        }
    }

    private static Set<String> attributes(MBeanServer beans, ObjectName name) throws Exception {
        Set<String> names = new TreeSet<>();
        Arrays.stream(beans.getMBeanInfo(name).getAttributes()).forEach(attribute -> names.add(attribute.getName()));
        return names;
    }
}

package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.SetDataRequest;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.it.RawClient;
import dev.warden.server.pipeline.Pipeline;
import dev.warden.state.common.Clock;
import dev.warden.storage.FaultInjectingChannels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone write that finds the pipeline idle runs through prep, log and apply on the
 * connection's thread; with writes queued, or after a slow fsync, the pipeline's threads take
 * them. Either way every write is durable before its reply and a session's requests keep their order.
 */
class InlineWriteServerTest {
    @TempDir
    Path dataDir;

    @Test
    void oneWriteAtATimeRunsInlineAndASlowFsyncSendsTheNextOnesToThePipelineThreads() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).build();
        FaultInjectingChannels disk = new FaultInjectingChannels();
        try (WardenServer server = WardenServer.start(config, Clock.SYSTEM, disk)) {
            Pipeline pipeline = (Pipeline) server.pipeline();
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/n", new byte[1], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                int before = pipeline.inlineRuns();
                for (int i = 0; i < 50; i++) {
                    zk.setData("/n", new byte[] {(byte) i}, i);
                }
                // Nothing else writes, so they run inline, except after an fsync this machine took
                // 2 ms or more over (a loaded CI host has those now and then).
                assertTrue(pipeline.inlineRuns() - before >= 10, "inline runs: " + (pipeline.inlineRuns() - before));

                disk.delayForcesBy(30);
                zk.setData("/n", new byte[] {1}, 50); // inline, and slow
                int afterSlow = pipeline.inlineRuns();
                zk.setData("/n", new byte[] {2}, 51); // the pipeline's threads, still slow
                zk.setData("/n", new byte[] {3}, 52);
                assertEquals(afterSlow, pipeline.inlineRuns(), "after a slow fsync writes go to the pipeline threads");
                disk.delayForcesBy(0);
                zk.setData("/n", new byte[] {4}, 53); // the log thread's fsync is fast again
                int afterFast = pipeline.inlineRuns();
                for (int i = 54; i < 60; i++) { // a few, in case one fsync of this machine is slow anyway
                    zk.setData("/n", new byte[] {5}, i);
                }
                assertTrue(pipeline.inlineRuns() > afterFast, "inline again once an fsync was fast");
                assertEquals(60, zk.exists("/n", false).getVersion());
            } finally {
                zk.close();
            }
        }
    }

    /**
     * A client that pipelines its writes must get them batched into shared fsyncs. Run inline,
     * each write would find the pipeline idle again after the one before it and take an fsync of
     * its own, on the connection's thread: one session with 256 writes in flight ran at about
     * 10,000 writes/s that way, against 200,000 through the pipeline's threads.
     */
    @Test
    void writesAClientSendsBackToBackGoThroughThePipelineThreadsNotOneByOneInline() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).build();
        int writeCount = 200;
        try (WardenServer server = WardenServer.start(config, Clock.SYSTEM, new FaultInjectingChannels())) {
            Pipeline pipeline = (Pipeline) server.pipeline();
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/n", new byte[1], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } finally {
                zk.close();
            }
            try (RawClient raw = RawClient.connect(server.connectString(), 30_000)) {
                int before = pipeline.inlineRuns();
                List<SetDataRequest> writes = new ArrayList<>();
                for (int i = 0; i < writeCount; i++) {
                    writes.add(new SetDataRequest("/n", new byte[] {(byte) i}, i));
                }
                List<ReplyHeader> replies = raw.callAllAtOnce(OpCode.SET_DATA, writes);
                for (int i = 0; i < writeCount; i++) {
                    assertEquals(i + 1, replies.get(i).xid(), "replies in the order sent");
                    assertEquals(0, replies.get(i).err(), "setData " + i);
                }
                // The last one may find the pipeline drained and run inline; the rest must not.
                int inline = pipeline.inlineRuns() - before;
                assertTrue(inline <= 1, "writes run inline one by one: " + inline + " of " + writeCount);
            }
        }
    }

    @Test
    void withInlineIdleWritesOffEveryWriteCrossesThePipelineThreads() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).inlineIdleWrites(false).build();
        try (WardenServer server = WardenServer.start(config, Clock.SYSTEM, new FaultInjectingChannels())) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/n", new byte[1], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                for (int i = 0; i < 20; i++) {
                    zk.setData("/n", new byte[] {(byte) i}, i);
                }
                assertEquals(20, zk.exists("/n", false).getVersion());
                assertEquals(0, ((Pipeline) server.pipeline()).inlineRuns());
            } finally {
                zk.close();
            }
        }
    }

    @Test
    void concurrentSessionsMixInlineAndQueuedWritesAndEachKeepsItsOrder() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).build();
        int sessions = 6;
        int writesPerSession = 150;
        List<ZooKeeper> clients = new ArrayList<>();
        try (WardenServer server = WardenServer.start(config, Clock.SYSTEM, new FaultInjectingChannels())) {
            ZooKeeper admin = ApacheClients.connect(server.connectString());
            clients.add(admin);
            List<CompletableFuture<List<String>>> results = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                ZooKeeper zk = ApacheClients.connect(server.connectString());
                clients.add(zk);
                String parent = "/s" + s;
                admin.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                results.add(CompletableFuture.supplyAsync(() -> writeInOrder(zk, parent, writesPerSession)));
            }
            for (CompletableFuture<List<String>> result : results) {
                List<String> names = result.get(60, TimeUnit.SECONDS);
                assertEquals(writesPerSession, names.size());
                for (int i = 1; i < names.size(); i++) {
                    assertTrue(names.get(i - 1).compareTo(names.get(i)) < 0,
                            "a session's creates were answered in the order it sent them: " + names);
                }
            }
            for (int s = 0; s < sessions; s++) {
                assertEquals(writesPerSession, admin.getChildren("/s" + s, false).size());
            }
            assertTrue(((Pipeline) server.pipeline()).inlineRuns() > 0);
        } finally {
            for (ZooKeeper zk : clients) {
                zk.close();
            }
        }
        // Everything acknowledged is on disk: a restart from the same directory has it all.
        try (WardenServer server = WardenServer.start(config, Clock.SYSTEM, new FaultInjectingChannels())) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                for (int s = 0; s < sessions; s++) {
                    assertEquals(writesPerSession, zk.getChildren("/s" + s, false).size());
                }
            } finally {
                zk.close();
            }
        }
    }

    /** Sends a session's creates asynchronously, several in flight; returns the names in reply order. */
    private static List<String> writeInOrder(ZooKeeper zk, String parent, int count) {
        List<String> names = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> done = new CompletableFuture<>();
        AsyncCallback.StringCallback callback = (rc, path, ctx, name) -> {
            if (rc != 0) {
                done.completeExceptionally(new AssertionError("create failed with " + rc));
                return;
            }
            names.add(name);
            if (names.size() == count) {
                done.complete(null);
            }
        };
        for (int i = 0; i < count; i++) {
            zk.create(parent + "/c-", new byte[16], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL,
                    callback, null);
            if (i % 8 == 7) {
                Thread.onSpinWait(); // keep a few in flight, not all
            }
        }
        done.join();
        return new ArrayList<>(names);
    }
}

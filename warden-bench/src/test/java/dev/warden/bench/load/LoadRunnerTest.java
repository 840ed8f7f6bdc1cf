package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.support.InProcessServers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Every workload runs briefly against Warden and Apache ZooKeeper and leaves the tree as it should. */
class LoadRunnerTest {

    static Stream<Arguments> everyWorkloadOnBothServers() {
        Supplier<InProcessServers.Server> warden = InProcessServers::warden;
        Supplier<InProcessServers.Server> apache = InProcessServers::apache;
        return Stream.of(Workload.values()).flatMap(w -> Stream.of(
                Arguments.of(w, "warden", warden), Arguments.of(w, "apache", apache)));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("everyWorkloadOnBothServers")
    void workloadCompletesOperationsWithoutErrors(Workload workload, String serverName,
                                                  Supplier<InProcessServers.Server> servers) throws Exception {
        try (InProcessServers.Server server = servers.get()) {
            LoadSpec spec = small(server.connectString(), workload, ClientKind.APACHE);
            StringWriter progress = new StringWriter();
            LoadResult result = new LoadRunner(new PrintWriter(progress)).run(spec);

            assertTrue(result.operations() > 0, () -> "no operations: " + result.describe());
            assertEquals(Map.of(), result.errors(), result::describe);
            assertTrue(result.p50Us() <= result.p99Us() && result.p99Us() <= result.maxUs(), result::describe);
            assertTrue(progress.toString().contains("[measure   1/1 s]"), progress::toString);
            assertTreeLeftClean(server.connectString(), spec);
        }
    }

    @Test
    void wardenClientDrivesTheSameWorkloads() throws Exception {
        try (InProcessServers.Server server = InProcessServers.apache()) {
            for (Workload workload : List.of(Workload.MIXED, Workload.CREATE_DELETE, Workload.LOCK, Workload.FANOUT)) {
                LoadSpec spec = small(server.connectString(), workload, ClientKind.WARDEN);
                LoadResult result = new LoadRunner(new PrintWriter(new StringWriter())).run(spec);
                assertTrue(result.operations() > 0, result::describe);
                assertEquals(Map.of(), result.errors(), result::describe);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = ClientKind.class, names = {"APACHE", "APACHE_NIO"})
    void apacheClientRunsOverTheSocketItsKindNames(ClientKind kind) throws Exception {
        String expectedSocket = kind == ClientKind.APACHE
                ? "org.apache.zookeeper.ClientCnxnSocketNetty" : "org.apache.zookeeper.ClientCnxnSocketNIO";
        try (InProcessServers.Server server = InProcessServers.warden()) {
            try (LoadClient client = kind.connect(server.connectString(), 10_000, 1 << 20)) {
                assertEquals(expectedSocket, ((ApacheLoadClient) client).socketClassName());
            }
            LoadSpec spec = small(server.connectString(), Workload.MIXED, kind);
            LoadResult result = new LoadRunner(new PrintWriter(new StringWriter())).run(spec);
            assertTrue(result.operations() > 0, result::describe);
            assertEquals(Map.of(), result.errors(), result::describe);
        }
    }

    @Test
    void missingNodesAreCountedByErrorCode() throws Exception {
        try (InProcessServers.Server server = InProcessServers.warden()) {
            LoadSpec spec = small(server.connectString(), Workload.GET_DATA, ClientKind.APACHE);
            LoadResult prepared = new LoadRunner(new PrintWriter(new StringWriter())).run(spec);
            assertTrue(prepared.errors().isEmpty(), prepared::describe);
            // delete the keys behind the workload's back: every read must now fail with NONODE
            ZooKeeper zk = connect(server.connectString());
            try {
                for (String key : LoadSetup.keyPaths(spec)) {
                    zk.delete(key, -1);
                }
            } finally {
                zk.close();
            }
            LoadRecorder recorder = new LoadRecorder();
            try (LoadClient client = ClientKind.APACHE.connect(server.connectString(), 10_000, 1 << 20)) {
                RequestDriver driver = new RequestDriver(spec, List.of(client), recorder);
                recorder.startMeasuring();
                driver.start();
                Thread.sleep(200);
                driver.stopAndDrain(5_000);
            }
            assertTrue(recorder.errorsByCode().getOrDefault("NO_NODE", 0L) > 0, recorder.errorsByCode()::toString);
            assertEquals(0, recorder.takeInterval().getTotalCount());
        }
    }

    private static LoadSpec small(String connectString, Workload workload, ClientKind client) {
        LoadSpec defaults = LoadSpec.defaults(connectString, workload);
        int valueBytes = workload == Workload.LARGE ? 200_000 : 128;
        return new LoadSpec(connectString, client, workload, 2, 4, valueBytes, 20, 50, 4, 3, 0, 1,
                10_000, "/bench-test", defaults.maxFrameBytes());
    }

    /** Nothing the workloads create for a moment may outlive the run. */
    private static void assertTreeLeftClean(String connectString, LoadSpec spec) throws Exception {
        ZooKeeper zk = connect(connectString);
        try {
            List<String> children = zk.getChildren(spec.workloadRoot(), false);
            switch (spec.workload()) {
                case CREATE_DELETE, LOCK, SESSION_STORM -> assertEquals(List.of(), children);
                case FANOUT -> assertEquals(List.of("watched"), children);
                default -> assertEquals(spec.keyCount(), children.size());
            }
        } finally {
            zk.close();
        }
    }

    private static ZooKeeper connect(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertTrue(connected.await(10, TimeUnit.SECONDS), "no session with " + connectString);
        return zk;
    }
}

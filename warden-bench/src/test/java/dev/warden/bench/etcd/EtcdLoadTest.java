package dev.warden.bench.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.warden.bench.load.LoadResult;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every etcd workload run briefly against one real etcd member. Skipped where no etcd is
 * installed (the build needs none; `apt-get install etcd-server` gives it).
 */
class EtcdLoadTest {
    @TempDir
    Path dir;

    @Test
    void everyWorkloadCompletesOperationsWithoutErrors() throws Exception {
        assumeTrue(EtcdBinary.locate(System.getenv()).isPresent(), "no etcd here: " + EtcdBinary.INSTALL_HINT);
        try (EtcdCluster cluster = EtcdCluster.start(1, dir, 60_000)) {
            for (EtcdWorkload workload : EtcdWorkload.values()) {
                int clients = workload == EtcdWorkload.WATCH_FANOUT ? 4 : 2;
                EtcdLoadSpec spec = new EtcdLoadSpec(cluster.endpoints(), workload, "/test-" + workload.name(),
                        clients, 2, 64, 8, 0, 1);
                LoadResult result = new EtcdLoad(new PrintWriter(Writer.nullWriter())).run(spec);
                assertTrue(result.operations() > 0, workload + ": " + result.describe());
                assertEquals(0, result.errorCount(), workload + ": " + result.describe());
            }
            assertEquals(List.of(), cluster.deadMembers());
        }
    }
}

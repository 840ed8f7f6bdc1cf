package dev.warden.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetChildrenResponse;
import dev.warden.protocol.GetDataResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each benchmark's setup and operation, called directly: they must do the work they claim to time. */
class BenchmarksSmokeTest {
    @TempDir
    Path dir;

    @Test
    void codecBenchmarksRoundTrip() {
        CodecBenchmark codec = new CodecBenchmark();
        codec.setUp();
        assertEquals("/app/service-42/node-42017", codec.decodeGetDataRequest().path());
        assertEquals(100, codec.decodeSetDataRequest().data().length);
        assertEquals(100, codec.decodeGetDataResponse().data().length);
        assertEquals(7, codec.decodeSetDataResponse().stat().version());
        assertEquals(8 + 4 + 26 + 1, codec.encodeGetDataRequest());
        // 6 longs and 5 ints
        assertEquals(6 * 8 + 5 * 4, codec.encodeStat());
    }

    @Test
    void dataTreeBenchmarkReadsAndWritesRealNodes() {
        DataTreeBenchmark tree = new DataTreeBenchmark();
        tree.nodeCount = 2000;
        tree.buildTree();
        assertEquals(ErrorCode.OK, tree.getData().error());
        assertEquals(100, ((GetDataResponse) tree.getData().body()).data().length);
        assertEquals(DataTreeBenchmark.NODES_PER_SERVICE,
                ((GetChildrenResponse) tree.getChildren().body()).children().size());
        tree.setData();
        tree.create();
    }

    @Test
    void fireManyWatchersNotifiesTheWholeHerd() {
        WatchManagerBenchmark watches = new WatchManagerBenchmark();
        watches.createPathsAndWatchers();
        watches.freshRegistry();
        assertEquals(1000, watches.fireManyWatchers());
        assertEquals(1, watches.addThenFire());
        assertEquals(true, watches.addDataWatch());
    }

    @Test
    void txnLogBenchmarkMakesEachBatchDurable() throws Exception {
        TxnLogBenchmark log = new TxnLogBenchmark();
        log.batchSize = 16;
        log.payloadBytes = 128;
        log.forceSync = true;
        log.parentDir = dir.toString();
        log.openLog();
        TxnLogBenchmark.Counters counters = new TxnLogBenchmark.Counters();
        assertEquals(16, log.appendBatchThenFlush(counters));
        assertEquals(32, log.appendBatchThenFlush(counters));
        assertEquals(32, counters.records);
        log.deleteLog();
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count());
        }
    }
}

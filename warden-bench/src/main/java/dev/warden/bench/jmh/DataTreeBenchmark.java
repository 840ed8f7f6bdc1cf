package dev.warden.bench.jmh;

import dev.warden.protocol.GetChildrenRequest;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.Reply;
import dev.warden.state.pipeline.Request;
import dev.warden.state.tree.DataTree;
import dev.warden.state.tree.NodeOwner;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import dev.warden.state.watch.WatchManager;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The data tree with {@code nodeCount} znodes laid out as {@code /app/service-<i/1000>/node-<i>}
 * with {@code valueBytes}-byte values. Writes go through {@link DataTree#apply} as the applier does; reads go
 * through {@link ReadProcessor} as a connection's read does (read lock, ACL check, Stat).
 * {@code create} adds fresh nodes under one parent, so the tree grows during its run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DataTreeBenchmark {
    static final int NODES_PER_SERVICE = 1000;
    @Param("100000")
    public int nodeCount;

    /** 100 as in the resource figures; 1024 is what the load benchmark writes. */
    @Param("100")
    public int valueBytes = 100;

    private DataTree tree;
    private ReadProcessor reads;
    private BenchOrigin origin;
    private byte[] value;
    private String[] paths;
    private long nextZxid;
    private long createdCount;
    private int cursor;

    @Setup
    public void buildTree() {
        if (nodeCount < NODES_PER_SERVICE) {
            throw new IllegalArgumentException("nodeCount must be at least " + NODES_PER_SERVICE + ": " + nodeCount);
        }
        tree = new DataTree();
        reads = new ReadProcessor(tree, new WatchManager(Integer.MAX_VALUE));
        origin = new BenchOrigin();
        value = new byte[valueBytes];
        create("/app");
        create("/app/fresh");
        paths = new String[nodeCount];
        for (int i = 0; i < nodeCount; i++) {
            if (i % NODES_PER_SERVICE == 0) {
                create(servicePath(i / NODES_PER_SERVICE));
            }
            paths[i] = servicePath(i / NODES_PER_SERVICE) + "/node-" + i;
            create(paths[i]);
        }
    }

    static String servicePath(int service) {
        return "/app/service-" + service;
    }

    private void create(String path) {
        tree.apply(new Txn(1, 0, ++nextZxid, nextZxid, new TxnBody.Create(path, value, Perms.OPEN_ACL_UNSAFE,
                NodeOwner.PERSISTENT, 0)));
    }

    /** Walks the paths with a stride so consecutive operations touch unrelated nodes. */
    private String nextPath() {
        cursor = (cursor + 7919) % paths.length;
        return paths[cursor];
    }

    @Benchmark
    public Object create() {
        return tree.apply(new Txn(1, 0, ++nextZxid, nextZxid, new TxnBody.Create("/app/fresh/n-" + createdCount++,
                value, Perms.OPEN_ACL_UNSAFE, NodeOwner.PERSISTENT, 0)));
    }

    @Benchmark
    public Object setData() {
        return tree.apply(new Txn(1, 0, ++nextZxid, nextZxid, new TxnBody.SetData(nextPath(), value, 1)));
    }

    @Benchmark
    public Reply getData() {
        return reads.process(new Request(origin, 1, 1, OpCode.GET_DATA, new GetDataRequest(nextPath(), false)));
    }

    /** A service node: 1,000 children. */
    @Benchmark
    public Reply getChildren() {
        cursor = (cursor + 1) % (nodeCount / NODES_PER_SERVICE);
        return reads.process(new Request(origin, 1, 1, OpCode.GET_CHILDREN,
                new GetChildrenRequest(servicePath(cursor), false)));
    }
}

package dev.warden.bench.jmh;

import dev.warden.protocol.Acl;
import dev.warden.protocol.EventType;
import dev.warden.state.watch.WatchManager;
import dev.warden.state.watch.WatchRecipient;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The watch registry: registering one-shot data watches, and firing a path watched by many
 * connections (the "herd" case: every client waiting on one lock or config node).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WatchManagerBenchmark {
    private static final int PATH_COUNT = 100_000;
    private static final int WATCHER_COUNT = 64;

    /** Watchers on the path fired by {@link #fireManyWatchers}; a constant because
     *  {@code @OperationsPerInvocation} must name it. */
    private static final int HERD_SIZE = 1000;

    private WatchManager watches;
    private String[] paths;
    private CountingWatcher[] watchers;
    private CountingWatcher[] herd;
    private int pathCursor;
    private int watcherCursor;

    @Setup(Level.Trial)
    public void createPathsAndWatchers() {
        paths = new String[PATH_COUNT];
        for (int i = 0; i < PATH_COUNT; i++) {
            paths[i] = "/app/service-" + i / 1000 + "/node-" + i;
        }
        watchers = new CountingWatcher[WATCHER_COUNT];
        for (int i = 0; i < WATCHER_COUNT; i++) {
            watchers[i] = new CountingWatcher();
        }
        herd = new CountingWatcher[HERD_SIZE];
        for (int i = 0; i < HERD_SIZE; i++) {
            herd[i] = new CountingWatcher();
        }
    }

    /** A fresh registry per iteration keeps addDataWatch registering new watches, not duplicates. */
    @Setup(Level.Iteration)
    public void freshRegistry() {
        watches = new WatchManager(Integer.MAX_VALUE);
        pathCursor = 0;
        watcherCursor = 0;
    }

    /** One new (path, watcher) registration; the registry grows to millions of watches. */
    @Benchmark
    public boolean addDataWatch() {
        if (++pathCursor == PATH_COUNT) {
            pathCursor = 0;
            watcherCursor = (watcherCursor + 1) % WATCHER_COUNT;
        }
        return watches.addDataWatch(paths[pathCursor], watchers[watcherCursor]);
    }

    /** Register a watch and fire it: the cycle of a client polling one node with getData(watch). */
    @Benchmark
    public int addThenFire() {
        pathCursor = (pathCursor + 1) % PATH_COUNT;
        String path = paths[pathCursor];
        watches.addDataWatch(path, watchers[0]);
        return watches.trigger(path, EventType.NODE_DATA_CHANGED, pathCursor, null);
    }

    /** HERD_SIZE connections watch one node, then it changes; reported per watcher. */
    @Benchmark
    @OperationsPerInvocation(HERD_SIZE)
    public int fireManyWatchers() {
        String path = paths[0];
        for (CountingWatcher w : herd) {
            watches.addDataWatch(path, w);
        }
        return watches.trigger(path, EventType.NODE_DATA_CHANGED, 1, null);
    }

    private static final class CountingWatcher implements WatchRecipient {
        private long notified;

        @Override
        public void process(int eventType, String path, long zxid, List<Acl> acl) {
            notified++;
        }
    }
}

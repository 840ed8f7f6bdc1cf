package dev.warden.state.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.protocol.EventType;
import dev.warden.protocol.WatcherType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random operation sequences against a deliberately naive model written straight from §5.5/§5.6
 * (a set of (path, watcher, kind) triples). Many watchers on few paths push popular paths into
 * the hashed layout; a small limit exercises rejection.
 */
class WatchManagerModelTest {
    private static final List<String> PATHS = List.of("/", "/a", "/a/b", "/a/b/c", "/a/c", "/ab", "/b");
    private static final int WATCHERS = 24;
    private static final int LIMIT = 9;

    enum Kind { DATA, CHILD, PERSISTENT, RECURSIVE }

    record Watch(String path, int watcher, Kind kind) {
    }

    /** op 0-3 add kind, 4 trigger, 5 check, 6 remove, 7 removeWatcher. */
    record Op(int op, int path, int watcher, int arg) {
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<Op> op = Combinators.combine(
                Arbitraries.integers().between(0, 7),
                Arbitraries.integers().between(0, PATHS.size() - 1),
                Arbitraries.integers().between(0, WATCHERS - 1),
                Arbitraries.integers().between(0, 4)).as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(400);
    }

    @Property(tries = 300)
    void managerBehavesLikeTheNaiveModel(@ForAll("operations") List<Op> ops) {
        WatchManager manager = new WatchManager(LIMIT);
        List<RecordingWatcher> watchers = new ArrayList<>();
        for (int i = 0; i < WATCHERS; i++) {
            watchers.add(new RecordingWatcher("w" + i));
        }
        Set<Watch> model = new HashSet<>();
        long zxid = 0;
        for (Op op : ops) {
            String path = PATHS.get(op.path());
            RecordingWatcher w = watchers.get(op.watcher());
            switch (op.op()) {
                case 0, 1, 2, 3 -> {
                    Kind kind = Kind.values()[op.op()];
                    Watch watch = new Watch(path, op.watcher(), kind);
                    boolean expected = model.contains(watch) || countOf(model, op.watcher()) < LIMIT;
                    if (expected) {
                        model.add(watch);
                    }
                    assertEquals(expected, add(manager, kind, path, w), op.toString());
                }
                case 4 -> {
                    int eventType = EventType.NODE_CREATED + op.arg() % 4;
                    Set<Integer> expected = fire(model, path, eventType);
                    int calls = manager.trigger(path, eventType, ++zxid, null);
                    assertEquals(expected.size(), calls, op.toString());
                    for (int i = 0; i < WATCHERS; i++) {
                        List<String> got = watchers.get(i).takeEvents();
                        assertEquals(expected.contains(i) ? List.of(eventType + " " + path + " " + zxid) : List.of(),
                                got, op + " watcher " + i);
                    }
                }
                case 5, 6 -> {
                    int watcherType = WatcherType.CHILDREN + op.arg();
                    Set<Kind> kinds = kindsOf(watcherType);
                    boolean remove = op.op() == 6;
                    boolean expected = model.stream().anyMatch(m -> m.path().equals(path)
                                    && m.watcher() == op.watcher() && kinds.contains(m.kind()));
                    if (remove) {
                        model.removeIf(m -> m.path().equals(path) && m.watcher() == op.watcher()
                                && kinds.contains(m.kind()));
                    }
                    assertEquals(expected, manager.removeWatches(path, watcherType, w, remove), op.toString());
                }
                default -> {
                    model.removeIf(m -> m.watcher() == op.watcher());
                    manager.removeWatcher(w);
                }
            }
            manager.checkInvariants();
            assertCountsMatch(model, manager, watchers);
        }
    }

    private static boolean add(WatchManager manager, Kind kind, String path, WatchRecipient w) {
        return switch (kind) {
            case DATA -> manager.addDataWatch(path, w);
            case CHILD -> manager.addChildWatch(path, w);
            case PERSISTENT -> manager.addPersistentWatch(path, w);
            case RECURSIVE -> manager.addPersistentRecursiveWatch(path, w);
        };
    }

    /** §5.6, spelled out per kind; removes the one-shot watches that fired. */
    private static Set<Integer> fire(Set<Watch> model, String path, int eventType) {
        Set<Integer> notified = new HashSet<>();
        List<Watch> consumed = new ArrayList<>();
        for (Watch m : model) {
            boolean onPath = m.path().equals(path);
            boolean onAncestor = !onPath && isAncestor(m.path(), path);
            boolean fires = switch (m.kind()) {
                case DATA -> onPath && eventType != EventType.NODE_CHILDREN_CHANGED;
                case CHILD -> onPath && (eventType == EventType.NODE_CHILDREN_CHANGED
                        || eventType == EventType.NODE_DELETED);
                case PERSISTENT -> onPath;
                case RECURSIVE -> (onPath || onAncestor) && eventType != EventType.NODE_CHILDREN_CHANGED;
            };
            if (fires) {
                notified.add(m.watcher());
                if (m.kind() == Kind.DATA || m.kind() == Kind.CHILD) {
                    consumed.add(m);
                }
            }
        }
        consumed.forEach(model::remove);
        return notified;
    }

    private static boolean isAncestor(String ancestor, String path) {
        return ancestor.equals("/") ? !path.equals("/") : path.startsWith(ancestor + "/");
    }

    private static Set<Kind> kindsOf(int watcherType) {
        return switch (watcherType) {
            case WatcherType.CHILDREN -> EnumSet.of(Kind.CHILD);
            case WatcherType.DATA -> EnumSet.of(Kind.DATA);
            case WatcherType.ANY -> EnumSet.allOf(Kind.class);
            case WatcherType.PERSISTENT -> EnumSet.of(Kind.PERSISTENT);
            default -> EnumSet.of(Kind.RECURSIVE);
        };
    }

    private static int countOf(Set<Watch> model, int watcher) {
        return (int) model.stream().filter(m -> m.watcher() == watcher).count();
    }

    private static void assertCountsMatch(Set<Watch> model, WatchManager manager, List<RecordingWatcher> watchers) {
        assertEquals(model.size(), manager.watchCount());
        Map<String, Set<Integer>> byPath = new HashMap<>();
        Set<String> dataPairs = new HashSet<>();
        for (Watch m : model) {
            byPath.computeIfAbsent(m.path(), p -> new HashSet<>()).add(m.watcher());
            if (m.kind() != Kind.CHILD) {
                dataPairs.add(m.path() + " " + m.watcher());
            }
        }
        assertEquals(byPath.size(), manager.pathCount());
        assertEquals(dataPairs.size(), manager.dataWatchCount());
        DataTableSummary summary = manager.dataTableSummary();
        assertEquals(dataPairs.size(), summary.watches());
        assertEquals(model.stream().filter(m -> m.kind() != Kind.CHILD).map(Watch::path).distinct().count(),
                summary.paths());
        assertEquals(model.stream().filter(m -> m.kind() != Kind.CHILD).map(Watch::watcher).distinct().count(),
                summary.watchers());
        assertEquals(model.stream().map(Watch::watcher).distinct().count(), manager.watcherCount());
        for (int i = 0; i < WATCHERS; i++) {
            assertEquals(countOf(model, i), manager.watchCount(watchers.get(i)));
        }
        Map<String, List<WatchRecipient>> dump = manager.watchersByPath();
        assertEquals(byPath.keySet(), dump.keySet());
        for (Map.Entry<String, List<WatchRecipient>> e : dump.entrySet()) {
            assertEquals(byPath.get(e.getKey()).size(), e.getValue().size());
        }
    }
}

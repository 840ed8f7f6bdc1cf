package dev.warden.state.watch;

import static dev.warden.protocol.EventType.NODE_CHILDREN_CHANGED;
import static dev.warden.protocol.EventType.NODE_CREATED;
import static dev.warden.protocol.EventType.NODE_DATA_CHANGED;
import static dev.warden.protocol.EventType.NODE_DELETED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import dev.warden.protocol.WatcherType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WatchManagerTest {
    private final WatchManager manager = new WatchManager(1_000);
    private final RecordingWatcher a = new RecordingWatcher("a");
    private final RecordingWatcher b = new RecordingWatcher("b");

    @AfterEach
    void invariantsHold() {
        manager.checkInvariants();
    }

    @Test
    void dataWatchFiresOnceOnDataChangeThenIsGone() {
        assertTrue(manager.addDataWatch("/x", a));
        assertEquals(1, manager.trigger("/x", NODE_DATA_CHANGED, 7, null));
        assertEquals(List.of(NODE_DATA_CHANGED + " /x 7"), a.takeEvents());
        assertEquals(0, manager.trigger("/x", NODE_DATA_CHANGED, 8, null));
        assertEquals(0, manager.watchCount());
        assertEquals(0, manager.pathCount());
        assertEquals(0, manager.watcherCount());
    }

    @Test
    void dataWatchFiresOnCreatedAndDeletedButNotChildrenChanged() {
        manager.addDataWatch("/x", a);
        assertEquals(0, manager.trigger("/x", NODE_CHILDREN_CHANGED, 1, null));
        assertEquals(1, manager.trigger("/x", NODE_CREATED, 2, null));
        manager.addDataWatch("/x", a);
        assertEquals(1, manager.trigger("/x", NODE_DELETED, 3, null));
        assertEquals(List.of(NODE_CREATED + " /x 2", NODE_DELETED + " /x 3"), a.takeEvents());
    }

    @Test
    void childWatchFiresOnChildrenChangedAndDeletedOnly() {
        manager.addChildWatch("/x", a);
        assertEquals(0, manager.trigger("/x", NODE_CREATED, 1, null));
        assertEquals(0, manager.trigger("/x", NODE_DATA_CHANGED, 2, null));
        assertEquals(1, manager.trigger("/x", NODE_CHILDREN_CHANGED, 3, null));
        assertFalse(manager.hasWatch("/x", WatcherType.CHILDREN, a));
        manager.addChildWatch("/x", a);
        assertEquals(1, manager.trigger("/x", NODE_DELETED, 4, null));
        assertEquals(0, manager.watchCount());
    }

    @Test
    void deleteNotifiesDataAndChildWatcherOnceAndConsumesBoth() {
        manager.addDataWatch("/x", a);
        manager.addChildWatch("/x", a);
        manager.addChildWatch("/x", b);
        assertEquals(2, manager.trigger("/x", NODE_DELETED, 5, null));
        assertEquals(List.of(NODE_DELETED + " /x 5"), a.takeEvents());
        assertEquals(List.of(NODE_DELETED + " /x 5"), b.takeEvents());
        assertEquals(0, manager.watchCount());
    }

    @Test
    void createLeavesTheChildWatchOfTheSamePathInPlace() {
        manager.addDataWatch("/x", a);
        manager.addChildWatch("/x", a);
        assertEquals(1, manager.trigger("/x", NODE_CREATED, 1, null));
        assertFalse(manager.hasWatch("/x", WatcherType.DATA, a));
        assertTrue(manager.hasWatch("/x", WatcherType.CHILDREN, a));
        assertEquals(1, manager.watchCount());
    }

    @Test
    void sameWatchRegisteredTwiceIsOneWatch() {
        assertTrue(manager.addDataWatch("/x", a));
        assertTrue(manager.addDataWatch("/x", a));
        assertEquals(1, manager.watchCount());
        assertEquals(1, manager.watchCount(a));
        assertEquals(1, manager.trigger("/x", NODE_DATA_CHANGED, 1, null));
        assertEquals(1, a.takeEvents().size());
    }

    @Test
    void dataAndPersistentWatchOfOneWatcherGiveOneNotificationAndOnlyTheOneShotGoes() {
        manager.addDataWatch("/x", a);
        manager.addPersistentWatch("/x", a);
        assertEquals(2, manager.watchCount(a));
        assertEquals(1, manager.trigger("/x", NODE_DATA_CHANGED, 9, null));
        assertEquals(List.of(NODE_DATA_CHANGED + " /x 9"), a.takeEvents());
        assertFalse(manager.hasWatch("/x", WatcherType.DATA, a));
        assertTrue(manager.hasWatch("/x", WatcherType.PERSISTENT, a));
        assertEquals(1, manager.watchCount(a));
    }

    @Test
    void persistentWatchFiresAllFourEventTypesForItsPathAndSurvivesDeletion() {
        manager.addPersistentWatch("/x", a);
        assertEquals(1, manager.trigger("/x", NODE_CREATED, 1, null));
        assertEquals(1, manager.trigger("/x", NODE_DATA_CHANGED, 2, null));
        assertEquals(1, manager.trigger("/x", NODE_CHILDREN_CHANGED, 3, null));
        assertEquals(1, manager.trigger("/x", NODE_DELETED, 4, null));
        assertEquals(1, manager.trigger("/x", NODE_CREATED, 5, null));
        assertEquals(5, a.takeEvents().size());
        assertEquals(0, manager.trigger("/x/child", NODE_CREATED, 6, null), "not recursive");
        assertTrue(manager.hasWatch("/x", WatcherType.PERSISTENT, a));
    }

    @Test
    void recursiveWatchFiresForDescendantsButNeverForChildrenChanged() {
        manager.addPersistentRecursiveWatch("/a", a);
        assertEquals(1, manager.trigger("/a/b/c", NODE_CREATED, 1, null));
        assertEquals(1, manager.trigger("/a/b/c", NODE_DATA_CHANGED, 2, null));
        assertEquals(1, manager.trigger("/a/b/c", NODE_DELETED, 3, null));
        assertEquals(0, manager.trigger("/a/b", NODE_CHILDREN_CHANGED, 4, null));
        assertEquals(0, manager.trigger("/a", NODE_CHILDREN_CHANGED, 5, null));
        assertEquals(1, manager.trigger("/a", NODE_DELETED, 6, null));
        assertEquals(List.of(NODE_CREATED + " /a/b/c 1", NODE_DATA_CHANGED + " /a/b/c 2",
                NODE_DELETED + " /a/b/c 3", NODE_DELETED + " /a 6"), a.takeEvents());
        assertTrue(manager.hasWatch("/a", WatcherType.PERSISTENT_RECURSIVE, a));
    }

    @Test
    void recursiveWatchDoesNotFireForSiblingWithSharedPrefix() {
        manager.addPersistentRecursiveWatch("/a", a);
        assertEquals(0, manager.trigger("/ab", NODE_CREATED, 1, null));
        assertEquals(0, manager.trigger("/ab/c", NODE_CREATED, 2, null));
        assertEquals(0, manager.trigger("/", NODE_DATA_CHANGED, 3, null));
    }

    @Test
    void recursiveWatchOnRootSeesEverythingAndRootTriggerHasNoAncestors() {
        manager.addPersistentRecursiveWatch("/", a);
        manager.addDataWatch("/", b);
        assertEquals(1, manager.trigger("/x/y", NODE_CREATED, 1, null));
        assertEquals(2, manager.trigger("/", NODE_DATA_CHANGED, 2, null));
        assertEquals(0, manager.trigger("/", NODE_CHILDREN_CHANGED, 3, null));
        assertEquals(List.of(NODE_CREATED + " /x/y 1", NODE_DATA_CHANGED + " / 2"), a.takeEvents());
        assertEquals(List.of(NODE_DATA_CHANGED + " / 2"), b.takeEvents());
    }

    @Test
    void watcherMatchingOnPathAndSeveralAncestorsIsNotifiedOnce() {
        manager.addPersistentRecursiveWatch("/", a);
        manager.addPersistentRecursiveWatch("/p", a);
        manager.addPersistentRecursiveWatch("/p/q", a);
        manager.addDataWatch("/p/q/r", a);
        manager.addPersistentWatch("/p/q/r", a);
        assertEquals(1, manager.trigger("/p/q/r", NODE_DATA_CHANGED, 1, null));
        assertEquals(1, a.takeEvents().size());
        assertFalse(manager.hasWatch("/p/q/r", WatcherType.DATA, a));
        assertEquals(4, manager.watchCount(a));
    }

    @Test
    void recursiveAndChildWatchOfOneWatcherStillDeliverChildrenChangedViaTheChildWatch() {
        manager.addPersistentRecursiveWatch("/a", a);
        manager.addChildWatch("/a", a);
        assertEquals(1, manager.trigger("/a", NODE_CHILDREN_CHANGED, 1, null));
        assertEquals(0, manager.trigger("/a", NODE_CHILDREN_CHANGED, 2, null));
    }

    @Test
    void aclAndZxidArePassedThrough() {
        List<Acl> acl = List.of(new Acl(Perms.READ, new Id("world", "anyone")));
        manager.addDataWatch("/x", a);
        manager.trigger("/x", NODE_DATA_CHANGED, 0x100000002L, acl);
        assertSame(acl, a.acls.get(0));
        assertEquals(List.of(NODE_DATA_CHANGED + " /x " + 0x100000002L), a.takeEvents());
        manager.addDataWatch("/x", a);
        manager.trigger("/x", NODE_DATA_CHANGED, 3, null);
        assertNull(a.acls.get(0));
    }

    @Test
    void watchersAreKeyedByIdentityNotEquals() {
        manager.addDataWatch("/x", a);
        assertFalse(manager.hasWatch("/x", WatcherType.DATA, b));
        manager.addDataWatch("/x", b);
        assertEquals(2, manager.watcherCount());
        assertEquals(2, manager.trigger("/x", NODE_DATA_CHANGED, 1, null));
    }

    @Test
    void limitCountsEveryKindAndIgnoresRepeats() {
        WatchManager limited = new WatchManager(4);
        assertTrue(limited.addDataWatch("/x", a));
        assertTrue(limited.addChildWatch("/x", a));
        assertTrue(limited.addPersistentWatch("/x", a));
        assertTrue(limited.addPersistentRecursiveWatch("/x", a));
        assertFalse(limited.addDataWatch("/y", a));
        assertFalse(limited.addPersistentWatch("/z", a));
        assertTrue(limited.addDataWatch("/x", a), "already held: no new registration");
        assertTrue(limited.addDataWatch("/y", b), "the limit is per watcher");
        assertEquals(4, limited.watchCount(a));
        assertEquals(5, limited.watchCount());
        assertFalse(limited.hasWatch("/y", WatcherType.ANY, a));
        limited.trigger("/x", NODE_DATA_CHANGED, 1, null);
        assertTrue(limited.addDataWatch("/y", a), "a fired one-shot frees a slot");
        limited.checkInvariants();
    }

    @Test
    void checkWatchesAndRemoveWatchesFollowTheWatcherTypeMapping() {
        manager.addDataWatch("/x", a);
        manager.addChildWatch("/x", a);
        manager.addPersistentWatch("/x", a);
        manager.addPersistentRecursiveWatch("/x", a);
        assertTrue(manager.removeWatches("/x", WatcherType.DATA, a, false));
        assertEquals(4, manager.watchCount(a), "check removes nothing");
        assertTrue(manager.removeWatches("/x", WatcherType.DATA, a, true));
        assertFalse(manager.removeWatches("/x", WatcherType.DATA, a, true));
        assertTrue(manager.hasWatch("/x", WatcherType.PERSISTENT, a), "data removal keeps persistent");
        assertTrue(manager.removeWatches("/x", WatcherType.CHILDREN, a, true));
        assertTrue(manager.removeWatches("/x", WatcherType.PERSISTENT, a, true));
        assertFalse(manager.hasWatch("/x", WatcherType.PERSISTENT, a));
        assertTrue(manager.hasWatch("/x", WatcherType.PERSISTENT_RECURSIVE, a));
        assertFalse(manager.removeWatches("/x", WatcherType.ANY, b, true));
        assertTrue(manager.removeWatches("/x", WatcherType.ANY, a, true));
        assertEquals(0, manager.watchCount());
        assertEquals(0, manager.trigger("/x/y", NODE_CREATED, 1, null));
        assertFalse(manager.removeWatches("/never", WatcherType.ANY, a, false));
    }

    @Test
    void anyRemovesEveryKindOnThatPathOnly() {
        manager.addDataWatch("/x", a);
        manager.addPersistentWatch("/x", a);
        manager.addDataWatch("/y", a);
        assertTrue(manager.removeWatches("/x", WatcherType.ANY, a, true));
        assertEquals(1, manager.watchCount(a));
        assertTrue(manager.hasWatch("/y", WatcherType.DATA, a));
    }

    @Test
    void invalidTypesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> manager.removeWatches("/x", 0, a, false));
        assertThrows(IllegalArgumentException.class, () -> manager.removeWatches("/x", 6, a, true));
        assertThrows(IllegalArgumentException.class, () -> manager.trigger("/x", -1, 1, null));
        assertThrows(IllegalArgumentException.class, () -> new WatchManager(0));
    }

    @Test
    void removeWatcherFreesEverythingAndLeavesOthers() {
        for (int i = 0; i < 50; i++) {
            manager.addDataWatch("/p" + i, a);
            manager.addChildWatch("/p" + i, a);
        }
        manager.addPersistentRecursiveWatch("/", a);
        manager.addPersistentWatch("/p0", b);
        assertEquals(102, manager.watchCount());
        manager.removeWatcher(a);
        manager.checkInvariants();
        assertEquals(1, manager.watchCount());
        assertEquals(1, manager.pathCount());
        assertEquals(1, manager.watcherCount());
        assertEquals(0, manager.trigger("/p3", NODE_DELETED, 1, null), "recursive watch on / is gone");
        manager.removeWatcher(b);
        manager.removeWatcher(b);
        assertEquals(0, manager.watchCount());
        assertEquals(0, manager.dataWatchCount());
        assertEquals(0, manager.pathCount());
        assertEquals(0, manager.watcherCount());
        assertTrue(manager.pathsByWatcher().isEmpty());
        assertTrue(manager.watchersByPath().isEmpty());
    }

    @Test
    void dataWatchCountCountsDataTablePairsLikeWchs() {
        manager.addDataWatch("/x", a);
        manager.addPersistentWatch("/x", a);
        manager.addChildWatch("/y", a);
        manager.addPersistentRecursiveWatch("/z", b);
        assertEquals(4, manager.watchCount());
        assertEquals(2, manager.dataWatchCount(), "(/x,a) and (/z,b); child-only /y is not in the data table");
        assertEquals(3, manager.pathCount());
        assertEquals(2, manager.watcherCount());
        assertEquals(new DataTableSummary(2, 2, 2), manager.dataTableSummary());
        manager.addChildWatch("/c", new RecordingWatcher("child only"));
        assertEquals(new DataTableSummary(2, 2, 2), manager.dataTableSummary());
        manager.addDataWatch("/y", b);
        assertEquals(new DataTableSummary(2, 3, 3), manager.dataTableSummary());
    }

    @Test
    void dumpsListPathsByWatcherAndWatchersByPath() {
        manager.addDataWatch("/b", a);
        manager.addChildWatch("/a", a);
        manager.addPersistentWatch("/a", b);
        Map<WatchRecipient, List<String>> byWatcher = manager.pathsByWatcher();
        assertEquals(List.of("/a", "/b"), byWatcher.get(a));
        assertEquals(List.of("/a"), byWatcher.get(b));
        Map<String, List<WatchRecipient>> byPath = manager.watchersByPath();
        assertEquals(List.of("/a", "/b"), List.copyOf(byPath.keySet()));
        assertEquals(2, byPath.get("/a").size());
        assertEquals(List.of(a), byPath.get("/b"));
    }

    @Test
    void watcherMayCallBackIntoTheManagerWhileBeingNotified() {
        WatchRecipient selfRemoving = new WatchRecipient() {
            @Override
            public void process(int eventType, String path, long zxid, List<Acl> acl) {
                manager.removeWatcher(this);
                manager.addDataWatch(path + "/again", this);
            }
        };
        manager.addPersistentWatch("/x", selfRemoving);
        manager.addDataWatch("/other", selfRemoving);
        assertEquals(1, manager.trigger("/x", NODE_DATA_CHANGED, 1, null));
        assertEquals(1, manager.watchCount(selfRemoving));
        assertTrue(manager.hasWatch("/x/again", WatcherType.DATA, selfRemoving));
    }

    @Test
    void parentOfWalksUpToRoot() {
        assertEquals("/a/b", WatchManager.parentOf("/a/b/c"));
        assertEquals("/", WatchManager.parentOf("/a"));
        assertNull(WatchManager.parentOf("/"));
    }
}

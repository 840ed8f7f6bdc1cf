package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Scripted sessions for ACLs, authentication and watches. */
class AclAndWatchScriptTest extends ScriptTestBase {

    /** The id a digest ACL names for user:password (base64 of the SHA-1 of that text). */
    private static String digestId(String user, String password) throws NoSuchAlgorithmException {
        byte[] hash = MessageDigest.getInstance("SHA-1").digest((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return user + ":" + Base64.getEncoder().encodeToString(hash);
    }

    @Test
    void getAclOfANewNodeIsWorldAnyoneAll() {
        ShellRun run = ok("create /acl-open\ngetAcl /acl-open\n");
        assertEquals("Created /acl-open\n'world,'anyone\n: cdrwa\n", run.out());
    }

    @Test
    void setAclRestrictsAndGetAclWithStatShowsTheNewAclVersion() {
        ShellRun run = ok("create /acl-r data\nsetAcl /acl-r world:anyone:r\ngetAcl -s /acl-r\n");
        assertTrue(run.out().startsWith("Created /acl-r\n'world,'anyone\n: r\ncZxid = "), run::toString);
        assertTrue(run.out().contains("aclVersion = 1\n"), run::toString);
        failing("set /acl-r other\n", "Insufficient permission : /acl-r\n");
        assertEquals("data\n", ok("get /acl-r\n").out());
    }

    @Test
    void setAclWithWrongVersionFailsAndWithRightOneSucceeds() {
        failing("create /acl-v\nsetAcl -v 4 /acl-v world:anyone:cdrwa\n", "version No is not valid : /acl-v");
        ShellRun run = ok("setAcl -s -v 0 /acl-v world:anyone:cdrw\n");
        assertTrue(run.out().contains("aclVersion = 1\n"), run::toString);
    }

    @Test
    void setAclRecursiveAppliesToTheSubtree() {
        ShellRun run = ok("create /acl-t\ncreate /acl-t/a\ncreate /acl-t/a/b\nsetAcl -R /acl-t world:anyone:cdr\ngetAcl /acl-t/a/b\n");
        assertTrue(run.out().endsWith("'world,'anyone\n: cdr\n"), run::toString);
    }

    @Test
    void malformedAclsAreRejectedBeforeReachingTheServer() {
        failing("create /acl-bad x foo\n", "Invalid ACL: foo does not have the form scheme:id:perm");
        failing("create /acl-bad2\nsetAcl /acl-bad2 world:anyone:rx\n", "unknown permission 'x'");
        failing("setAcl /acl-bad2 world:anyone:\n", "grants no permission");
        failing("getAcl /acl-missing\n", "Node does not exist: /acl-missing");
    }

    @Test
    void digestAclNeedsAddauthToRead() throws Exception {
        String acl = "digest:" + digestId("alice", "secret") + ":cdrwa";
        ok("create /acl-d hidden " + acl + "\n");
        failing("get /acl-d\n", "Insufficient permission : /acl-d\n");
        ShellRun run = ok("addauth digest alice:secret\nget /acl-d\nwhoami\n");
        assertTrue(run.out().startsWith("hidden\nAuth scheme: User\n"), run::toString);
        assertTrue(run.out().contains("digest: alice\n"), run::toString);
    }

    @Test
    void whoamiShowsTheIpIdentity() {
        ShellRun run = ok("whoami\n");
        assertTrue(run.out().startsWith("Auth scheme: User\nip: 127.0.0.1\n"), run::toString);
    }

    @Test
    void getWithWatchPrintsTheDataChangeEvent() {
        ShellRun run = ok("create /w-get a\nget -w /w-get\nset /w-get b\n");
        assertEquals("Created /w-get\na\nWATCHER:: WatchedEvent state:SyncConnected type:NodeDataChanged path:/w-get zxid: ",
                run.out().substring(0, run.out().lastIndexOf("zxid: ") + 6));
    }

    @Test
    void lsWithWatchPrintsTheChildrenChangedEventOnce() {
        ShellRun run = ok("create /w-ls\nls -w /w-ls\ncreate /w-ls/a\ncreate /w-ls/b\n");
        assertEquals(1, count(run.out(), "type:NodeChildrenChanged path:/w-ls "), run::toString);
    }

    @Test
    void statWithWatchOnAMissingNodeStillWatchesItsCreation() {
        ShellRun run = failing("stat -w /w-stat\ncreate /w-stat\n", "Node does not exist: /w-stat");
        assertTrue(run.out().contains("WATCHER:: WatchedEvent state:SyncConnected type:NodeCreated path:/w-stat zxid: "),
                run::toString);
    }

    @Test
    void addWatchDefaultsToRecursiveAndPersistentModeSeesOnlyThePath() {
        ShellRun recursive = ok("create /w-r\naddWatch /w-r\ncreate /w-r/a\ncreate /w-r/a/b\nset /w-r/a/b x\n");
        assertTrue(recursive.out().contains("type:NodeCreated path:/w-r/a "), recursive::toString);
        assertTrue(recursive.out().contains("type:NodeCreated path:/w-r/a/b "), recursive::toString);
        assertTrue(recursive.out().contains("type:NodeDataChanged path:/w-r/a/b "), recursive::toString);

        ShellRun exact = ok("create /w-p\naddWatch -m PERSISTENT /w-p\ncreate /w-p/a\nset /w-p x\nset /w-p y\n");
        assertEquals(1, count(exact.out(), "type:NodeChildrenChanged path:/w-p "), exact::toString);
        assertEquals(2, count(exact.out(), "type:NodeDataChanged path:/w-p "), exact::toString);
        assertTrue(!exact.out().contains("path:/w-p/a"), exact::toString);

        failing("addWatch -m ONCE /w-p\n", "Unsupported mode: ONCE");
    }

    @Test
    void removewatchesDeliversTheRemovedEventAndStopsTheWatch() {
        ShellRun run = ok("create /w-rm\nget -w /w-rm\nremovewatches /w-rm -d\nset /w-rm z\n");
        assertTrue(run.out().contains("type:DataWatchRemoved path:/w-rm "), run::toString);
        assertTrue(!run.out().contains("NodeDataChanged"), run::toString);
    }

    @Test
    void removewatchesWithoutAWatchFails() {
        failing("create /w-none\nremovewatches /w-none\n", "KeeperErrorCode = No such watcher for /w-none");
        failing("removewatches /w-none -c -d\n", "Only one of -c, -d and -a may be given");
    }

    @Test
    void removewatchesAllAlsoRemovesPersistentWatches() {
        ShellRun run = ok("create /w-all\naddWatch -m PERSISTENT /w-all\nremovewatches /w-all -a -l\nset /w-all q\n");
        assertTrue(run.out().contains("type:PersistentWatchRemoved path:/w-all "), run::toString);
        assertTrue(!run.out().contains("NodeDataChanged"), run::toString);
    }

    private static int count(String text, String part) {
        int found = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            found++;
        }
        return found;
    }
}

package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** setquota, listquota and delquota, writing what zkCli writes under /zookeeper/quota. */
class QuotaScriptTest extends ScriptTestBase {
    @Test
    void setListAndDeleteAQuota() {
        ShellRun run = ok("create /qa x\ncreate /qa/one abc\nsetquota -n 5 /qa\nsetquota -B 100 /qa\nlistquota /qa\n"
                + "get /zookeeper/quota/qa/zookeeper_limits\ndelquota -B /qa\nlistquota /qa\ndelquota /qa\n"
                + "ls /zookeeper/quota\n");
        assertEquals("Created /qa\nCreated /qa/one\nabsolute path is /zookeeper/quota/qa/zookeeper_limits\n"
                + "Output quota for /qa count=5,bytes=-1=;byteHardLimit=100\n"
                + "Output stat for /qa count=2,bytes=4\n"
                + "count=5,bytes=-1=;byteHardLimit=100\n"
                + "absolute path is /zookeeper/quota/qa/zookeeper_limits\n"
                + "Output quota for /qa count=5,bytes=-1=;byteHardLimit=-1\n"
                + "Output stat for /qa count=2,bytes=4\n"
                + "[]\n", run.out());
    }

    @Test
    void quotasNestInNeitherDirectionAndNeedTheNode() {
        failing("setquota -n 2 /missing\n", "/missing does not exist.");
        ShellRun nested = server.script("create /qb\ncreate /qb/in\nsetquota -n 3 /qb\nsetquota -n 1 /qb/in\n"
                + "delquota /qb\nsetquota -n 1 /qb/in\nsetquota -n 3 /qb\ndelquota /qb/in\n");
        assertTrue(nested.err().contains("/qb/in has a parent /zookeeper/quota/qb which has a quota"), nested.toString());
        assertTrue(nested.err().contains("/qb has a child /zookeeper/quota/qb/in which has a quota"), nested.toString());
        failing("delquota /nowhere\n", "Quota does not exist for /nowhere");
        failing("setquota /qb\n", "one of -n, -b, -N, -B is needed");
    }
}

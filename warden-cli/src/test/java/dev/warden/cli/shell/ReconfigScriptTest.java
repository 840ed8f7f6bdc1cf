package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.quorum.ZabConsensus;
import dev.warden.state.common.Clock;
import dev.warden.storage.TxnLogOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * zkCli's {@code reconfig} and {@code config} in the shell against a one-member ensemble
 * (standaloneEnabled=false) that takes a second member and gives it back: {@code -add},
 * {@code -file}, {@code -members}, {@code -remove} with {@code -v} and {@code -s}; and each
 * mistake zkCli refuses before sending anything.
 */
class ReconfigScriptTest {
    private static final long SERVING_TIMEOUT_MS = 30_000;

    @TempDir
    Path dir;

    private final Map<Long, QuorumMember> lines = new TreeMap<>();
    private final List<WardenServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(WardenServer::close);
    }

    private QuorumMember line(long id) {
        return lines.computeIfAbsent(id, key -> {
            List<Integer> ports = FreePorts.pick(3);
            return new QuorumMember(key, "127.0.0.1", ports.get(0), ports.get(1), false, "127.0.0.1", ports.get(2));
        });
    }

    private static String spec(QuorumMember member) {
        return "server." + member.id() + "=" + member.toSpec();
    }

    private WardenServer start(long id, long... memberIds) throws Exception {
        Map<Long, QuorumMember> members = new TreeMap<>();
        for (long member : memberIds) {
            members.put(member, line(member));
        }
        WardenServer server = WardenServer.start(ServerConfig.builder()
                .dataDir(dir.resolve("m" + id)).clientPort(line(id).clientPort()).clientPortAddress("127.0.0.1")
                .tickTimeMs(200).initLimitTicks(25).syncLimitTicks(25).serverId((int) id)
                .members(members).standaloneEnabled(false).reconfigEnabled(true).skipAcl(true)
                // the shell's 30 s session: a reconfig waiting for its joiner may wait a third of it
                .maxSessionTimeoutMs(30_000).build(),
                Clock.SYSTEM, TxnLogOptions.defaults().channels(), ZabConsensus::new);
        servers.add(server);
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (!server.member().isServing() && id == 1) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("member " + id + " does not serve");
            }
            Thread.sleep(10);
        }
        return server;
    }

    private ShellRun script(String script) {
        return ShellRun.of(script, "-server", "127.0.0.1:" + line(1).clientPort(), "-timeout", "30000");
    }

    private static String versionOf(String config) {
        return config.substring(config.lastIndexOf("version=") + "version=".length()).strip();
    }

    @Test
    void reconfigAddsAndRemovesMembersAsZkCliDoes() throws Exception {
        start(1, 1);
        start(2, 1, 2);

        ShellRun added = script("reconfig -add " + spec(line(2)) + "\nconfig\n");
        assertEquals(0, added.exitCode(), added::toString);
        assertEquals("", added.err(), added::toString);
        String both = spec(line(1)) + "\n" + spec(line(2)) + "\n";
        assertTrue(added.out().startsWith("Committed new configuration:\n" + both + "version="), added::toString);
        String version = versionOf(added.out().substring(0, added.out().indexOf("\n", added.out().indexOf("version="))));
        // config prints /zookeeper/config as it is now: the configuration just committed
        assertTrue(added.out().endsWith(both + "version=" + version + "\n"), added::toString);

        Path file = dir.resolve("one-member.cfg.dynamic");
        Files.writeString(file, spec(line(1)) + "\nversion=" + version + "\n");
        ShellRun fromFile = script("reconfig -file " + file + "\n");
        assertEquals(0, fromFile.exitCode(), fromFile::toString);
        assertTrue(fromFile.out().startsWith("Committed new configuration:\n" + spec(line(1)) + "\nversion="),
                fromFile::toString);

        ShellRun stale = script("reconfig -v " + version + " -members " + spec(line(1)) + "," + spec(line(2)) + "\n");
        assertEquals(1, stale.exitCode(), stale::toString);
        assertTrue(stale.err().contains("version No is not valid"), stale::toString);

        ShellRun members = script("reconfig -members " + spec(line(1)) + "," + spec(line(2)) + "\n");
        assertEquals(0, members.exitCode(), members::toString);
        String current = versionOf(members.out());
        ShellRun removed = script("reconfig -s -v " + current + " -remove 2\nconfig -s\n");
        assertEquals(0, removed.exitCode(), removed::toString);
        assertTrue(removed.out().startsWith("Committed new configuration:\n" + spec(line(1)) + "\nversion="),
                removed::toString);
        assertTrue(removed.out().contains("cZxid = "), "-s prints the stat: " + removed);
        assertTrue(removed.out().contains("dataVersion = 4"), "four changes committed: " + removed);
    }

    @Test
    void mistakesAreRefusedWithZkClisWordsBeforeAnythingIsSent() throws Exception {
        assertEquals("one of -add, -remove, -members and -file is needed",
                refusal(List.of("-s")));
        assertEquals("Can't use -file or -members together with -add or -remove (mixing incremental and"
                + " non-incremental modes is not allowed)", refusal(List.of("-members", "server.1=a:1:2", "-remove", "2")));
        assertEquals("Can't use -file and -members together (conflicting non-incremental modes)",
                refusal(List.of("-file", "x.cfg", "-members", "server.1=a:1:2")));
        assertEquals("-v must be followed by a long (configuration version)",
                refusal(List.of("-v", "xyz", "-remove", "2")));
        assertEquals("Missing argument for option: add", refusal(List.of("-add")));
        assertEquals("Unrecognized option: -x", refusal(List.of("-x", "-remove", "2")));

        ReconfigCommand.Parsed parsed = ReconfigCommand.parse(List.of("-v", "100000002", "-add",
                "server.4=Host:1:2;3", "-remove", "5"));
        assertEquals(0x100000002L, parsed.fromConfig(), "-v is hexadecimal, as /zookeeper/config shows it");
        assertEquals("server.4=host:1:2;3", parsed.joining(), "values are lower-cased, as zkCli does");
        assertEquals("5", parsed.leaving());
        assertNull(parsed.members());

        Path file = dir.resolve("zoo.cfg.dynamic.100000000");
        Files.writeString(file, "server.2=b:1:2;3\nserver.1=a:1:2;3\nversion=100000000\n");
        assertEquals("server.1=a:1:2;3,server.2=b:1:2;3",
                ReconfigCommand.parse(List.of("-file", file.toString())).members());
        Files.writeString(file, "server.1=a:1:2;3\ntickTime=2000\n");
        assertTrue(refusal(List.of("-file", file.toString())).contains("'tickTime' is not a member line"));

        // the shell reports them with the usage and fails the script, connected to nothing
        ShellRun run = ShellRun.of("reconfig -s\n");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.err().contains("Usage: " + ReconfigCommand.USAGE), run::toString);
    }

    private static String refusal(List<String> words) {
        return assertThrows(ShellException.class, () -> ReconfigCommand.parse(words)).getMessage();
    }
}

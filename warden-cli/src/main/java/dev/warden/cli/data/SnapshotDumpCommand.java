package dev.warden.cli.data;

import dev.warden.protocol.Stat;
import dev.warden.state.tree.DataNode;
import dev.warden.state.tree.DataTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code warden snapshot dump}: every node of a snapshot with its Stat, ACL and data, then the
 * sessions with their timeouts and ephemerals, as text or one JSON document. Reads only.
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Print a snapshot: every node (path, Stat, ACL, data), then the sessions with their",
                "timeouts and ephemerals. SNAPSHOT is a snapshot file, or a data or snapshot directory",
                "(its newest valid snapshot). Exit status 1 if the snapshot is invalid."})
final class SnapshotDumpCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SNAPSHOT", description = "Snapshot file, data directory or snapshot directory.")
    private Path input;

    @Option(names = "--json", description = "One JSON document.")
    private boolean json;

    @Option(names = "--data", paramLabel = "FORMAT", defaultValue = "AUTO",
            description = "How to show data: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}: text when printable).")
    private DataFormat dataFormat;

    @Option(names = "--path", paramLabel = "PREFIX", description = "Only nodes whose path starts with this.")
    private String pathPrefix;

    @Option(names = "--limit", paramLabel = "N", description = "Print at most N nodes.")
    private Long limit;

    @Option(names = "--no-sessions", description = "Leave out the sessions.")
    private boolean noSessions;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LoadedSnapshot snapshot;
        try {
            snapshot = LoadedSnapshot.load(input);
        } catch (IOException e) {
            err.println(e.getMessage());
            err.flush();
            return 1;
        }
        if (json) {
            writeJson(snapshot, new JsonWriter(out));
            out.println();
        } else {
            writeText(snapshot, out);
        }
        out.flush();
        return 0;
    }

    private boolean selected(String path) {
        return pathPrefix == null || path.startsWith(pathPrefix);
    }

    private void writeText(LoadedSnapshot snapshot, PrintWriter out) {
        DataTree tree = snapshot.state().tree();
        out.println("Snapshot " + snapshot.file() + ": started at zxid " + TxnView.hex(snapshot.zxid())
                + ", finished at " + TxnView.hex(snapshot.reachedZxid())
                + (snapshot.isFuzzy() ? " (fuzzy: exact once the log after its start is replayed up to there)" : ""));
        out.println("Nodes (" + tree.nodeCount() + "):");
        long[] printed = {0};
        tree.forEachNodeInOrder((path, node) -> {
            if (!selected(path) || limit != null && printed[0] >= limit) {
                return;
            }
            printed[0]++;
            Stat stat = node.stat();
            out.println(path);
            out.println("  cZxid = " + TxnView.hex(stat.czxid()));
            out.println("  ctime = " + Instant.ofEpochMilli(stat.ctime()));
            out.println("  mZxid = " + TxnView.hex(stat.mzxid()));
            out.println("  mtime = " + Instant.ofEpochMilli(stat.mtime()));
            out.println("  pZxid = " + TxnView.hex(stat.pzxid()));
            out.println("  cversion = " + stat.cversion());
            out.println("  dataVersion = " + stat.version());
            out.println("  aclVersion = " + stat.aversion());
            out.println("  ephemeralOwner = " + TxnView.hex(stat.ephemeralOwner()));
            out.println("  mode = " + TxnView.mode(node.owner()));
            out.println("  dataLength = " + stat.dataLength());
            out.println("  numChildren = " + stat.numChildren());
            out.println("  acl = " + TxnView.aclStrings(node.acl()));
            DataFormat.Rendered data = dataFormat.render(node.data());
            if (data.value() != null) {
                out.println("  data" + ("text".equals(data.encoding()) ? "" : " (" + data.encoding() + ")") + " = "
                        + data.value());
            }
        });
        if (noSessions) {
            return;
        }
        Map<Long, List<String>> ephemerals = tree.ephemeralsBySession();
        var sessions = snapshot.state().sessions().sessions();
        out.println("Sessions (" + sessions.size() + "):");
        Map<Long, Integer> timeouts = new TreeMap<>(Long::compareUnsigned);
        sessions.forEach(session -> timeouts.put(session.id(), session.timeoutMs()));
        timeouts.forEach((id, timeoutMs) -> {
            List<String> owned = ephemerals.getOrDefault(id, List.of()).stream().sorted().toList();
            out.println(TxnView.hex(id) + " timeout " + timeoutMs + " ms, " + owned.size() + " ephemerals");
            owned.forEach(path -> out.println("  " + path));
        });
    }

    private void writeJson(LoadedSnapshot snapshot, JsonWriter json) {
        DataTree tree = snapshot.state().tree();
        json.beginObject();
        json.field("file", snapshot.file().toString());
        json.field("zxid", TxnView.hex(snapshot.zxid()));
        json.field("reachedZxid", TxnView.hex(snapshot.reachedZxid()));
        json.field("nodeCount", tree.nodeCount());
        json.name("nodes").beginArray();
        long[] printed = {0};
        tree.forEachNodeInOrder((path, node) -> {
            if (!selected(path) || limit != null && printed[0] >= limit) {
                return;
            }
            printed[0]++;
            writeNodeJson(path, node, json);
        });
        json.endArray();
        if (!noSessions) {
            Map<Long, List<String>> ephemerals = tree.ephemeralsBySession();
            json.name("sessions").beginArray();
            Map<Long, Integer> timeouts = new TreeMap<>(Long::compareUnsigned);
            snapshot.state().sessions().sessions().forEach(session -> timeouts.put(session.id(), session.timeoutMs()));
            timeouts.forEach((id, timeoutMs) -> {
                json.beginObject().field("id", TxnView.hex(id)).field("timeoutMs", timeoutMs);
                json.name("ephemerals").beginArray();
                ephemerals.getOrDefault(id, List.of()).stream().sorted().forEach(json::value);
                json.endArray().endObject();
            });
            json.endArray();
        }
        json.endObject();
    }

    private void writeNodeJson(String path, DataNode node, JsonWriter json) {
        Stat stat = node.stat();
        json.beginObject();
        json.field("path", path);
        json.name("stat").beginObject()
                .field("czxid", TxnView.hex(stat.czxid())).field("ctime", stat.ctime())
                .field("mzxid", TxnView.hex(stat.mzxid())).field("mtime", stat.mtime())
                .field("pzxid", TxnView.hex(stat.pzxid())).field("cversion", stat.cversion())
                .field("version", stat.version()).field("aversion", stat.aversion())
                .field("ephemeralOwner", TxnView.hex(stat.ephemeralOwner()))
                .field("dataLength", stat.dataLength()).field("numChildren", stat.numChildren())
                .endObject();
        json.field("mode", TxnView.mode(node.owner()));
        json.name("acl").beginArray();
        TxnView.aclStrings(node.acl()).forEach(json::value);
        json.endArray();
        DataFormat.Rendered data = dataFormat.render(node.data());
        json.field("data", data.value()).field("dataEncoding", data.encoding());
        json.endObject();
    }
}

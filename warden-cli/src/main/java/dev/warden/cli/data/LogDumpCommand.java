package dev.warden.cli.data;

import dev.warden.state.txn.Txn;
import dev.warden.storage.LogFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code warden log dump}: every record of a transaction log, one per line (text or JSON lines),
 * with zxid, time, session, cxid, type and the type's fields. Reads only, so it works on the log
 * of a running server too; a torn tail or damage is reported after the records before it.
 */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Print the records of a transaction log: zxid, time, session, cxid, type and fields.",
                "LOG is a data directory (its log/), a log directory or one log.<zxid> segment file.",
                "Exit status 0, or 1 if the log is damaged (the records before the damage are printed)."})
final class LogDumpCommand implements Callable<Integer> {
    static final int EXIT_DAMAGED = 1;
    static final int EXIT_BAD_INPUT = 2;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "LOG", description = "Data directory, log directory or segment file.")
    private Path input;

    @Option(names = "--json", description = "One JSON object per record (JSON lines).")
    private boolean json;

    @Option(names = "--data", paramLabel = "FORMAT", defaultValue = "AUTO",
            description = "How to show data: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}: text when printable).")
    private DataFormat dataFormat;

    @Option(names = "--from-zxid", paramLabel = "ZXID", converter = HexOrDecimal.class,
            description = "Only records at or after this zxid (0x hex or decimal).")
    private Long fromZxid;

    @Option(names = "--to-zxid", paramLabel = "ZXID", converter = HexOrDecimal.class,
            description = "Only records at or before this zxid.")
    private Long toZxid;

    @Option(names = "--session", paramLabel = "ID", converter = HexOrDecimal.class,
            description = "Only records of this session.")
    private Long session;

    @Option(names = "--path", paramLabel = "PREFIX", description = "Only records naming a path that starts with this.")
    private String pathPrefix;

    @Option(names = "--type", paramLabel = "TYPE",
            description = "Only records of this type (create, delete, setData, setACL, createSession, closeSession,"
                    + " multi, check; a multi matches the types of its ops).")
    private String type;

    @Option(names = "--limit", paramLabel = "N", description = "Print at most N records.")
    private Long limit;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<LogFiles.Segment> segments;
        try {
            segments = segmentsOf(input);
        } catch (IOException | IllegalArgumentException e) {
            err.println(e.getMessage());
            err.flush();
            return EXIT_BAD_INPUT;
        }
        long[] printed = {0};
        JsonWriter jsonOut = json ? new JsonWriter(out) : null;
        boolean damaged = false;
        for (LogFiles.Segment segment : segments) {
            if (!json) {
                out.println("# " + segment.file() + ": follows zxid " + TxnView.hex(segment.previousZxid()) + ", "
                        + segment.recordCount() + " records" + (segment.recordCount() > 0 ? " up to "
                        + TxnView.hex(segment.lastZxid()) : ""));
            }
            boolean more = limit == null || printed[0] < limit;
            if (more && (toZxid == null || segment.firstZxid() <= toZxid)
                    && (fromZxid == null || segment.recordCount() == 0 || segment.lastZxid() >= fromZxid)) {
                LogFiles.readRecords(segment, record -> {
                    if (toZxid != null && record.zxid() > toZxid) {
                        return false;
                    }
                    Txn txn;
                    try {
                        txn = Txn.decode(record.payload());
                    } catch (RuntimeException undecodable) {
                        throw new IOException(segment.file() + " at byte offset " + record.offsetBytes() + ": record "
                                + TxnView.hex(record.zxid()) + " passes its checksum but is not a transaction ("
                                + undecodable.getMessage() + ")", undecodable);
                    }
                    if (matches(txn)) {
                        if (json) {
                            TxnView.writeJson(txn, dataFormat, jsonOut);
                            jsonOut.newline();
                        } else {
                            TxnView.writeText(txn, dataFormat, out);
                        }
                        printed[0]++;
                    }
                    return limit == null || printed[0] < limit;
                });
            }
            if (segment.tornTail() != null) {
                err.println(segment.file() + ": torn tail at byte offset " + segment.dataEndBytes() + " ("
                        + segment.tornTail() + "): the remains of a write that never completed; a starting server"
                        + " cuts it off");
            }
            if (segment.damage() != null) {
                damaged = true;
                err.println(segment.file() + ": damaged at byte offset " + segment.damage().offsetBytes() + ": "
                        + segment.damage().reason() + " (docs/STORAGE.md says what to do with a damaged log)");
            }
        }
        out.flush();
        err.flush();
        return damaged ? EXIT_DAMAGED : 0;
    }

    private boolean matches(Txn txn) {
        if (fromZxid != null && txn.zxid() < fromZxid) {
            return false;
        }
        if (session != null && txn.sessionId() != session) {
            return false;
        }
        if (pathPrefix != null && TxnView.paths(txn.body()).stream().noneMatch(p -> p.startsWith(pathPrefix))) {
            return false;
        }
        return type == null || TxnView.types(txn.body()).stream().anyMatch(t -> t.equalsIgnoreCase(type));
    }

    /** The segments LOG names: a segment file (judged within its directory), a log directory, or a data directory's log. */
    static List<LogFiles.Segment> segmentsOf(Path input) throws IOException {
        if (Files.isRegularFile(input)) {
            if (!LogFiles.isSegmentName(input)) {
                throw new IllegalArgumentException(input + " is not a log segment (log.<16 hex digits>)");
            }
            Path dir = input.toAbsolutePath().getParent();
            for (LogFiles.Segment segment : LogFiles.inspect(dir)) {
                if (Files.isSameFile(segment.file(), input)) {
                    return List.of(segment);
                }
            }
            throw new IllegalArgumentException(input + " vanished while it was read");
        }
        if (!Files.isDirectory(input)) {
            throw new IllegalArgumentException(input + " does not exist");
        }
        List<LogFiles.Segment> direct = LogFiles.inspect(input);
        if (!direct.isEmpty()) {
            return direct;
        }
        Path logDir = input.resolve("log");
        if (Files.isDirectory(logDir)) {
            return LogFiles.inspect(logDir);
        }
        if (Files.isDirectory(input.resolve("version-2"))) {
            throw new IllegalArgumentException(input + " holds Apache ZooKeeper data (version-2/); this command reads"
                    + " Warden's log. 'warden import --from-zookeeper " + input + "' converts it");
        }
        return new ArrayList<>();
    }
}

package dev.warden.cli.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A ZooKeeper data directory read whole, the way a ZooKeeper server recovers it: the newest
 * finished snapshot (one ZooKeeper was still writing when it stopped is skipped, as ZooKeeper
 * skips it), then every logged transaction after it, in zxid order and without a gap. The tree
 * is checked against the digests ZooKeeper wrote (3.6 and later): the snapshot's, once the
 * replay reaches the zxid it was taken at, and each transaction's after that. Anything damaged
 * or missing is a {@link ZkFormatException} or {@link IOException} naming the file; nothing of
 * it is written anywhere.
 */
public final class ZkDataDir {
    /** ZooKeeper keeps its files in this subdirectory of dataDir and dataLogDir. */
    public static final String VERSION_DIR = "version-2";

    /**
     * What was read.
     *
     * @param lastZxid        the zxid of the state (the last transaction replayed, or the snapshot's)
     * @param acceptedEpoch   from ZooKeeper's acceptedEpoch file, or -1 if it has none (standalone)
     * @param currentEpoch    from its currentEpoch file, or -1
     * @param myid            the text of dataDir/myid, or null
     * @param digestsChecked  how many of ZooKeeper's digests were compared with the rebuilt tree (all equal)
     * @param notes           what an operator should know (a skipped snapshot, a torn log tail), one line each
     */
    public record Contents(ZkTree tree, Map<Long, Integer> sessions, long lastZxid, Path snapshotFile,
                           int replayedTxns, long acceptedEpoch, long currentEpoch, String myid, int digestsChecked,
                           List<String> notes) {
    }

    private ZkDataDir() {
    }

    /** True if {@code dir} holds ZooKeeper's {@code version-2/} directory. */
    public static boolean isZooKeeperDataDir(Path dir) {
        return Files.isDirectory(dir.resolve(VERSION_DIR));
    }

    public static Contents read(Path dataDir, Path dataLogDir) throws IOException {
        Path snapDir = dataDir.resolve(VERSION_DIR);
        Path logDir = (dataLogDir == null ? dataDir : dataLogDir).resolve(VERSION_DIR);
        if (!Files.isDirectory(snapDir)) {
            throw new IOException(dataDir + " is not a ZooKeeper data directory: it has no " + VERSION_DIR
                    + "/ (point --from-zookeeper at ZooKeeper's dataDir, the directory holding version-2/)");
        }
        if (!Files.isDirectory(logDir)) {
            throw new IOException(logDir + " does not exist: give ZooKeeper's dataLogDir with --zookeeper-log-dir"
                    + " if it is not its dataDir");
        }
        List<Path> snapshots = files(snapDir, "snapshot", Comparator.reverseOrder());
        List<Path> logs = files(logDir, "log", Comparator.naturalOrder());
        if (snapshots.isEmpty() && logs.isEmpty()) {
            throw new IOException(snapDir + " holds neither snapshot.<zxid> nor log.<zxid> files: nothing to import");
        }
        List<String> notes = new ArrayList<>();
        ZkSnapshot snapshot = newestFinished(snapshots, notes);
        ZkTree tree = snapshot == null ? ZkSnapshot.initialTree() : snapshot.tree;
        Map<Long, Integer> sessions = snapshot == null ? new LinkedHashMap<>() : snapshot.sessions;
        long snapZxid = snapshot == null ? 0 : snapshot.zxid;
        Replay replay = new Replay(tree, sessions, snapZxid, snapshot);
        if (snapshot == null && (logs.isEmpty() || ZkSnapshot.zxidOfName(logs.get(0), "log") > 1)) {
            throw new IOException(snapDir + " holds no finished snapshot, and its log does not start at the first"
                    + " transaction (" + (logs.isEmpty() ? "there is none" : logs.get(0).getFileName()) + "): the"
                    + " state cannot be rebuilt");
        }
        int first = 0;
        for (int i = 0; i < logs.size(); i++) {
            if (ZkSnapshot.zxidOfName(logs.get(i), "log") <= snapZxid) {
                first = i;
            }
        }
        for (int i = first; i < logs.size(); i++) {
            Path file = logs.get(i);
            ZkLog.Summary summary = ZkLog.read(file, i == logs.size() - 1, (txn, offset) -> replay.apply(txn, file,
                    offset));
            if (summary.tornAt() >= 0) {
                notes.add(file + ": torn tail at byte offset " + summary.tornAt() + " (" + summary.tornReason()
                        + "): the remains of a write ZooKeeper never acknowledged, left out as ZooKeeper leaves it out");
            }
        }
        replay.finish(logs.isEmpty() ? snapDir : logs.get(logs.size() - 1));
        if (replay.digestsChecked == 0) {
            notes.add("no ZooKeeper digest to check the tree against (ZooKeeper before 3.6, or digests turned off)");
        }
        return new Contents(tree, sessions, replay.lastZxid, snapshot == null ? null : snapshot.file,
                replay.replayed, readLong(snapDir.resolve("acceptedEpoch")), readLong(snapDir.resolve("currentEpoch")),
                readText(dataDir.resolve("myid")), replay.digestsChecked, notes);
    }

    private static List<Path> files(Path dir, String prefix, Comparator<Long> order) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(f -> ZkSnapshot.zxidOfName(f, prefix) >= 0 && Files.isRegularFile(f))
                    .sorted(Comparator.comparing(f -> ZkSnapshot.zxidOfName(f, prefix), order)).toList();
        }
    }

    private static ZkSnapshot newestFinished(List<Path> newestFirst, List<String> notes) throws IOException {
        for (Path file : newestFirst) {
            try {
                return ZkSnapshot.read(file);
            } catch (ZkFormatException e) {
                if (ZkSnapshot.looksFinished(file)) {
                    throw e;
                }
                notes.add("skipped " + file + ", which ZooKeeper had not finished writing (" + e.getMessage()
                        + "); ZooKeeper starts from an older snapshot then too");
            }
        }
        return null;
    }

    /** Applies transactions after the snapshot, checking the order and ZooKeeper's digests. */
    private static final class Replay {
        private final ZkTree tree;
        private final Map<Long, Integer> sessions;
        private final long snapZxid;
        private final ZkSnapshot snapshot;
        private final ZkSnapshot.Digest snapshotDigest;
        /** Once the replay has passed the end of the snapshot's fuzzy window, every digest must match. */
        private boolean exact;
        long lastZxid;
        int replayed;
        int digestsChecked;

        Replay(ZkTree tree, Map<Long, Integer> sessions, long snapZxid, ZkSnapshot snapshot) throws IOException {
            this.tree = tree;
            this.sessions = sessions;
            this.snapZxid = snapZxid;
            this.snapshot = snapshot;
            this.lastZxid = snapZxid;
            ZkSnapshot.Digest digest = snapshot == null ? null : snapshot.digest;
            // ZooKeeper writes an empty digest (zxid 0) when it had none, and ignores one older than the snapshot
            this.snapshotDigest = digest != null && digest.version() == ZkDigest.VERSION && digest.zxid() > 0
                    && digest.zxid() >= snapZxid
                    ? digest : null;
            this.exact = snapshot == null || snapshot.finishedZxid == snapZxid;
            if (snapshotDigest != null && snapshotDigest.zxid() == snapZxid) {
                check(snapshotDigest.digest(), snapZxid, snapshot.file, 0);
                exact = true;
            }
        }

        void apply(ZkTxn txn, Path file, long offset) throws IOException {
            if (txn.zxid() <= snapZxid) {
                return;
            }
            if (!follows(lastZxid, txn.zxid())) {
                throw new ZkFormatException(file, offset, "zxid 0x" + Long.toHexString(txn.zxid()) + " comes after 0x"
                        + Long.toHexString(lastZxid) + ": the transactions between are missing (a log file deleted"
                        + " or purged?)");
            }
            txn.applyTo(tree, sessions);
            lastZxid = txn.zxid();
            replayed++;
            if (snapshotDigest != null && txn.zxid() == snapshotDigest.zxid()) {
                check(snapshotDigest.digest(), txn.zxid(), snapshot.file, 0);
                exact = true;
            } else if (snapshot != null && txn.zxid() == snapshot.finishedZxid) {
                exact = true;
            }
            if (exact && txn.digest() != null && txn.digest().version() == ZkDigest.VERSION) {
                check(txn.digest().treeDigest(), txn.zxid(), file, offset);
            }
        }

        void finish(Path lastFile) throws IOException {
            long reached = snapshot == null ? 0 : Math.max(snapshot.finishedZxid,
                    snapshotDigest == null ? 0 : snapshotDigest.zxid());
            if (reached > lastZxid) {
                throw new IOException("snapshot " + snapshot.file + " was finished at zxid 0x" + Long.toHexString(reached)
                        + ", but the log ends at 0x" + Long.toHexString(lastZxid) + " (" + lastFile + "): the"
                        + " transactions that make the snapshot exact are missing");
            }
        }

        private void check(long expected, long zxid, Path file, long offset) throws IOException {
            digestsChecked++;
            if (expected != tree.digest()) {
                throw new ZkFormatException(file, offset, "ZooKeeper's digest of the tree at zxid 0x"
                        + Long.toHexString(zxid) + " is " + expected + ", but the tree rebuilt from the files has "
                        + tree.digest() + ": the files do not hold the tree ZooKeeper had");
            }
        }
    }

    /** Whether {@code next} can directly follow {@code previous}: the next counter, or the first of a later epoch. */
    static boolean follows(long previous, long next) {
        return next == previous + 1 || (next >>> 32) > (previous >>> 32) && (next & 0xffffffffL) == 1;
    }

    private static long readLong(Path file) throws IOException {
        String text = readText(file);
        if (text == null) {
            return -1;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IOException(file + " holds '" + text + "', not an epoch");
        }
    }

    private static String readText(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException absent) {
            return null;
        }
    }
}

package dev.warden.cli.zookeeper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Adler32;

/**
 * Reads one ZooKeeper transaction log file ({@code log.<first zxid in hex>}, as FileTxnLog
 * writes it):
 *
 * <pre>
 * header = int magic "ZKLG", int version (2), long dbid
 * record = long adler32(txn), int length, byte[length] txn, byte 'B'
 * </pre>
 *
 * The file is preallocated with zeros, so a length of 0 ends the data. A record that is cut
 * short, fails its checksum or lacks its 'B' is judged as Warden judges its own log: in the
 * newest file, with no valid record after it, it is a torn tail (a write ZooKeeper never
 * acknowledged; ZooKeeper ignores it too); anywhere else it is damage, and the file and offset
 * are reported.
 */
final class ZkLog {
    static final int MAGIC = 0x5A4B4C47; // "ZKLG"
    static final int HEADER_BYTES = 16;
    /** Checksum and length before a record's bytes. */
    private static final int RECORD_HEAD_BYTES = 12;
    private static final byte END_OF_RECORD = 0x42;
    /** A TxnHeader is 28 bytes: clientId, cxid, zxid, time, type. */
    private static final int TXN_HEADER_BYTES = 28;

    /** Receives the records in order; the transaction is parsed, the zxid checked to rise. */
    @FunctionalInterface
    interface Visitor {
        void visit(ZkTxn txn, long offsetBytes) throws IOException;
    }

    /**
     * How a file ended.
     *
     * @param records     whole records read
     * @param lastZxid    the last of them (-1 if none)
     * @param tornAt      the offset of a torn tail (-1 if none)
     * @param tornReason  why the tail is torn
     */
    record Summary(int records, long lastZxid, long tornAt, String tornReason) {
    }

    private ZkLog() {
    }

    /** Reads every record of {@code file} (the newest log file if {@code newest}), in order. */
    static Summary read(Path file, boolean newest, Visitor visitor) throws IOException {
        long size = Files.size(file);
        if (size > Integer.MAX_VALUE - 16) {
            throw new ZkFormatException(file, 0, "a log file of " + size + " bytes is larger than this converter reads"
                    + " (2 GiB)");
        }
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer view = ByteBuffer.wrap(bytes);
        if (bytes.length < HEADER_BYTES) {
            if (newest && allZero(bytes, 0)) {
                return new Summary(0, -1, 0, "the file header never reached the disk");
            }
            throw new ZkFormatException(file, 0, "a log file of " + bytes.length + " bytes has no header");
        }
        if (view.getInt(0) != MAGIC) {
            throw new ZkFormatException(file, 0, "not a ZooKeeper transaction log (magic 0x"
                    + Integer.toHexString(view.getInt(0)) + ", expected ZKLG)");
        }
        if (view.getInt(4) != 2) {
            throw new ZkFormatException(file, 4, "log format version " + view.getInt(4) + "; ZooKeeper 3.x writes 2");
        }
        int at = HEADER_BYTES;
        int count = 0;
        long lastZxid = -1;
        while (true) {
            if (allZero(bytes, at)) {
                // the end of the data: the file ends, or its preallocated zeros begin
                return new Summary(count, lastZxid, -1, null);
            }
            String bad = checkRecord(bytes, at);
            if (bad == null) {
                int length = view.getInt(at + 8);
                if (length == 0) {
                    bad = "a zero length field followed by non-zero bytes";
                } else {
                    byte[] txnBytes = java.util.Arrays.copyOfRange(bytes, at + RECORD_HEAD_BYTES,
                            at + RECORD_HEAD_BYTES + length);
                    ZkTxn txn = ZkTxn.parse(txnBytes, file, at + RECORD_HEAD_BYTES);
                    if (txn.zxid() <= lastZxid) {
                        throw new ZkFormatException(file, at, "zxid 0x" + Long.toHexString(txn.zxid())
                                + " does not follow 0x" + Long.toHexString(lastZxid));
                    }
                    visitor.visit(txn, at);
                    lastZxid = txn.zxid();
                    count++;
                    at += RECORD_HEAD_BYTES + length + 1;
                    continue;
                }
            }
            if (!newest) {
                throw new ZkFormatException(file, at, bad + " (in a log file that is not the newest, so it was"
                        + " complete once: damage)");
            }
            if (validRecordAfter(bytes, at, lastZxid)) {
                throw new ZkFormatException(file, at, bad + " (valid records follow it, so this is damage, not an"
                        + " unfinished last write)");
            }
            return new Summary(count, lastZxid, at, bad);
        }
    }

    /** Why the record at {@code at} is not whole and valid, or null (a length of 0 is left to the caller). */
    private static String checkRecord(byte[] bytes, int at) {
        if (at + RECORD_HEAD_BYTES > bytes.length) {
            return "a partial record header";
        }
        ByteBuffer view = ByteBuffer.wrap(bytes);
        int length = view.getInt(at + 8);
        if (length == 0) {
            return null;
        }
        if (length < TXN_HEADER_BYTES || (long) at + RECORD_HEAD_BYTES + length + 1 > bytes.length) {
            return length < 0 || length < TXN_HEADER_BYTES ? "impossible record length " + length
                    : "a record of " + length + " bytes runs past the end of the file";
        }
        if (bytes[at + RECORD_HEAD_BYTES + length] != END_OF_RECORD) {
            return "the record's end-of-record marker is missing";
        }
        Adler32 adler = new Adler32();
        adler.update(bytes, at + RECORD_HEAD_BYTES, length);
        if (adler.getValue() != view.getLong(at)) {
            return "Adler32 checksum mismatch";
        }
        return null;
    }

    private static boolean allZero(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Any whole, valid record with a higher zxid starting after {@code badAt}. */
    private static boolean validRecordAfter(byte[] bytes, int badAt, long lastZxid) {
        int end = bytes.length;
        while (end > badAt && bytes[end - 1] == 0) {
            end--;
        }
        ByteBuffer view = ByteBuffer.wrap(bytes);
        for (int at = badAt + 1; at + RECORD_HEAD_BYTES + TXN_HEADER_BYTES + 1 <= end; at++) {
            int length = view.getInt(at + 8);
            if (length < TXN_HEADER_BYTES || (long) at + RECORD_HEAD_BYTES + length + 1 > bytes.length) {
                continue;
            }
            if (checkRecord(bytes, at) == null && view.getLong(at + RECORD_HEAD_BYTES + 12) > lastZxid) {
                return true;
            }
        }
        return false;
    }
}

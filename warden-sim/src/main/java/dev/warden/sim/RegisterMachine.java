package dev.warden.sim;

import dev.warden.consensus.Entry;
import dev.warden.consensus.SnapshotData;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The simulator's replicated state machine: a compare-and-set register (value, version) and a
 * counter of sequential creates. It also remembers which entries it applied (zxid and payload
 * hash) so the checkers can compare histories, and a digest over them.
 */
public final class RegisterMachine {
    /** What applying one entry did. */
    public record Result(Command command, long zxid, boolean ok, long version, long sequence) { }

    private long version;
    private long value;
    private long creates;
    private long digest;
    private long[] zxids = new long[16];
    private int[] hashes = new int[16];
    private int size;

    public RegisterMachine copy() {
        RegisterMachine copy = new RegisterMachine();
        copy.version = version;
        copy.value = value;
        copy.creates = creates;
        copy.digest = digest;
        copy.zxids = Arrays.copyOf(zxids, zxids.length);
        copy.hashes = Arrays.copyOf(hashes, hashes.length);
        copy.size = size;
        return copy;
    }

    public Result apply(Entry entry) {
        if (size > 0 && entry.zxid() <= zxids[size - 1]) {
            throw new IllegalStateException("entry " + Long.toHexString(entry.zxid()) + " applied out of order after "
                    + Long.toHexString(zxids[size - 1]));
        }
        Command command = Command.decode(entry.payload());
        Result result = applyCommand(command, entry.zxid());
        record(entry);
        return result;
    }

    /** Applies a command without recording it: the leader's view of pending state when it preps requests. */
    public Result applyCommand(Command command, long zxid) {
        if (command.kind() == Command.Kind.CAS) {
            if (command.expectedVersion() != version) {
                return new Result(command, zxid, false, version, -1);
            }
            version++;
            value = command.value();
            return new Result(command, zxid, true, version, -1);
        }
        if (command.kind() == Command.Kind.CREATE) {
            long sequence = creates++;
            return new Result(command, zxid, true, version, sequence);
        }
        throw new IllegalArgumentException("not a txn: " + command);
    }

    private void record(Entry entry) {
        if (size == zxids.length) {
            zxids = Arrays.copyOf(zxids, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        int hash = Arrays.hashCode(entry.payload());
        zxids[size] = entry.zxid();
        hashes[size] = hash;
        size++;
        digest = digest * 1_000_003L + entry.zxid() * 31 + hash;
    }

    public long version() {
        return version;
    }

    public long value() {
        return value;
    }

    public long digest() {
        return digest;
    }

    public int size() {
        return size;
    }

    public long zxidAt(int index) {
        return zxids[index];
    }

    public int hashAt(int index) {
        return hashes[index];
    }

    public long lastZxid() {
        return size == 0 ? 0 : zxids[size - 1];
    }

    /** Applied history up to and including {@code zxid}: the number of entries. */
    public int countUpTo(long zxid) {
        int low = 0;
        int high = size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (zxids[mid] <= zxid) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    public SnapshotData snapshot() {
        ByteBuffer out = ByteBuffer.allocate(4 * Long.BYTES + Integer.BYTES + size * (Long.BYTES + Integer.BYTES));
        out.putLong(version).putLong(value).putLong(creates).putLong(digest).putInt(size);
        for (int i = 0; i < size; i++) {
            out.putLong(zxids[i]).putInt(hashes[i]);
        }
        return new SnapshotData(lastZxid(), out.array());
    }

    public static RegisterMachine restore(SnapshotData snapshot) {
        RegisterMachine machine = new RegisterMachine();
        if (snapshot.bytes().length == 0) {
            return machine;
        }
        ByteBuffer in = ByteBuffer.wrap(snapshot.bytes());
        machine.version = in.getLong();
        machine.value = in.getLong();
        machine.creates = in.getLong();
        machine.digest = in.getLong();
        int count = in.getInt();
        machine.zxids = new long[Math.max(16, count * 2)];
        machine.hashes = new int[Math.max(16, count * 2)];
        for (int i = 0; i < count; i++) {
            machine.zxids[i] = in.getLong();
            machine.hashes[i] = in.getInt();
        }
        machine.size = count;
        return machine;
    }

    /** Rebuilds from a snapshot plus log entries up to {@code upToZxid} (what a restart or TRUNC does). */
    public static RegisterMachine rebuild(SnapshotData snapshot, List<Entry> log, long upToZxid) {
        RegisterMachine machine = restore(snapshot);
        for (Entry entry : log) {
            if (entry.zxid() > machine.lastZxid() && entry.zxid() <= upToZxid) {
                machine.apply(entry);
            }
        }
        return machine;
    }

    public List<Long> zxids() {
        List<Long> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(zxids[i]);
        }
        return out;
    }
}

package dev.warden.cli.zookeeper;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One transaction of a ZooKeeper log: its header and its change, parsed from the bytes of a
 * log record (TxnHeader, the txn record of its type, then a TxnDigest when ZooKeeper had
 * digests on), and applied to a {@link ZkTree} as ZooKeeper's DataTree applies it.
 */
record ZkTxn(long clientId, int cxid, long zxid, long timeMs, int type, Op op, Digest digest) {
    /** ZooKeeper's opcodes that appear in logs. */
    static final int CREATE = 1;
    static final int DELETE = 2;
    static final int SET_DATA = 5;
    static final int SET_ACL = 7;
    static final int CHECK = 13;
    static final int MULTI = 14;
    static final int CREATE2 = 15;
    static final int RECONFIG = 16;
    static final int CREATE_CONTAINER = 19;
    static final int DELETE_CONTAINER = 20;
    static final int CREATE_TTL = 21;
    static final int CREATE_SESSION = -10;
    static final int CLOSE_SESSION = -11;
    static final int ERROR = -1;

    /** Bytes of a TxnDigest: int version, long tree digest. */
    private static final int DIGEST_BYTES = 12;
    private static final int MAX_FIELD_BYTES = Integer.MAX_VALUE;
    private static final long TTL_MARK = 0xFF00000000000000L;

    /** The digest of the whole tree after this transaction, as ZooKeeper computed it. */
    record Digest(int version, long treeDigest) {
    }

    sealed interface Op {
    }

    record Create(String path, byte[] data, List<Acl> acl, long owner, int parentCversion) implements Op {
    }

    record Delete(String path) implements Op {
    }

    record SetData(String path, byte[] data, int version) implements Op {
    }

    record SetAcl(String path, List<Acl> acl, int version) implements Op {
    }

    record CreateSession(int timeoutMs) implements Op {
    }

    /** {@code paths} is null for logs written before ZooKeeper listed them (or with the listing off). */
    record CloseSession(List<String> paths) implements Op {
    }

    /** An op that changes nothing: an error result, a check. */
    record NoChange(String what) implements Op {
    }

    record Multi(List<Op> ops, boolean failed) implements Op {
    }

    static String typeName(int type) {
        return switch (type) {
            case CREATE -> "create";
            case CREATE2 -> "create2";
            case CREATE_CONTAINER -> "createContainer";
            case CREATE_TTL -> "createTTL";
            case DELETE -> "delete";
            case DELETE_CONTAINER -> "deleteContainer";
            case SET_DATA -> "setData";
            case RECONFIG -> "reconfig";
            case SET_ACL -> "setACL";
            case CHECK -> "check";
            case MULTI -> "multi";
            case CREATE_SESSION -> "createSession";
            case CLOSE_SESSION -> "closeSession";
            case ERROR -> "error";
            default -> "type " + type;
        };
    }

    /** Parses a record's bytes; {@code offset} is where they start in {@code file}, for messages. */
    static ZkTxn parse(byte[] bytes, Path file, long offset) throws ZkFormatException {
        JuteInput in = new JuteInput(new ByteArrayInputStream(bytes), file, offset);
        try {
            long clientId = in.readLong();
            int cxid = in.readInt();
            long zxid = in.readLong();
            long time = in.readLong();
            int type = in.readInt();
            Op op = readOp(type, in, clientId, bytes.length, offset, true);
            long left = offset + bytes.length - in.position();
            Digest digest = null;
            if (left == DIGEST_BYTES) {
                digest = new Digest(in.readInt(), in.readLong());
            } else if (left != 0) {
                throw in.error(in.position(), left + " bytes left after a " + typeName(type)
                        + " transaction (expected none, or a 12-byte digest)");
            }
            return new ZkTxn(clientId, cxid, zxid, time, type, op, digest);
        } catch (ZkFormatException e) {
            throw e;
        } catch (EOFException e) {
            throw in.error(in.position(), "the transaction ends early");
        } catch (IOException e) {
            throw in.error(in.position(), e.getMessage());
        }
    }

    private static Op readOp(int type, JuteInput in, long clientId, int totalBytes, long start, boolean topLevel)
            throws IOException {
        return switch (type) {
            case CREATE, CREATE2 -> {
                String path = path(in);
                byte[] data = in.readBuffer(MAX_FIELD_BYTES, "data");
                List<Acl> acl = acl(in);
                boolean ephemeral = in.readBoolean();
                int parentCversion = in.readInt();
                yield new Create(path, data, acl, ephemeral ? clientId : 0, parentCversion);
            }
            case CREATE_CONTAINER -> new Create(path(in), in.readBuffer(MAX_FIELD_BYTES, "data"), acl(in),
                    ZkTree.CONTAINER_OWNER, in.readInt());
            case CREATE_TTL -> {
                String path = path(in);
                byte[] data = in.readBuffer(MAX_FIELD_BYTES, "data");
                List<Acl> acl = acl(in);
                int parentCversion = in.readInt();
                long ttl = in.readLong();
                yield new Create(path, data, acl, TTL_MARK | ttl, parentCversion);
            }
            case DELETE, DELETE_CONTAINER -> new Delete(path(in));
            case SET_DATA, RECONFIG -> new SetData(path(in), in.readBuffer(MAX_FIELD_BYTES, "data"), in.readInt());
            case SET_ACL -> new SetAcl(path(in), acl(in), in.readInt());
            case CHECK -> {
                String path = path(in);
                in.readInt();
                yield new NoChange("check " + path);
            }
            case ERROR -> new NoChange("error " + in.readInt());
            case CREATE_SESSION -> new CreateSession(in.readInt());
            case CLOSE_SESSION -> {
                // The list of paths came with ZooKeeper 3.6; older logs, and logs written with
                // it off, hold nothing (or only the digest) after the header.
                long left = start + totalBytes - in.position();
                if (!topLevel || left == 0 || left == DIGEST_BYTES) {
                    yield new CloseSession(null);
                }
                int count = in.readInt();
                if (count < 0) {
                    yield new CloseSession(null);
                }
                List<String> paths = new ArrayList<>(Math.min(count, 1024));
                for (int i = 0; i < count; i++) {
                    paths.add(path(in));
                }
                yield new CloseSession(paths);
            }
            case MULTI -> {
                long at = in.position();
                int count = in.readInt();
                if (count < 0 || count > totalBytes) {
                    throw in.error(at, "a multi claims " + count + " ops");
                }
                List<Op> ops = new ArrayList<>(count);
                boolean failed = false;
                for (int i = 0; i < count; i++) {
                    int subType = in.readInt();
                    long subStart = in.position();
                    byte[] sub = in.readBuffer(totalBytes, "a multi's op");
                    if (sub == null) {
                        throw in.error(subStart, "a multi's op has no bytes");
                    }
                    JuteInput subIn = new JuteInput(new ByteArrayInputStream(sub), in.file(), subStart + 4);
                    ops.add(readOp(subType, subIn, clientId, sub.length, subStart + 4, false));
                    failed |= subType == ERROR;
                }
                yield new Multi(ops, failed);
            }
            default -> throw in.error(start, "unknown transaction type " + type
                    + " (this converter reads the transactions of ZooKeeper 3.5 to 3.9)");
        };
    }

    private static String path(JuteInput in) throws IOException {
        long at = in.position();
        String path = in.readString(MAX_FIELD_BYTES, "a path");
        if (path == null || !path.startsWith("/")) {
            throw in.error(at, "'" + path + "' is not a path");
        }
        return path;
    }

    private static List<Acl> acl(JuteInput in) throws IOException {
        long at = in.position();
        int count = in.readInt();
        if (count < 0 || count > 1 << 16) {
            throw in.error(at, "an ACL claims " + count + " entries");
        }
        List<Acl> acl = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int perms = in.readInt();
            String scheme = in.readString(MAX_FIELD_BYTES, "an ACL scheme");
            String id = in.readString(MAX_FIELD_BYTES, "an ACL id");
            acl.add(new Acl(perms, new Id(scheme, id)));
        }
        return List.copyOf(acl);
    }

    /** Applies this transaction to the tree and the session table, as ZooKeeper replays it. */
    void applyTo(ZkTree tree, java.util.Map<Long, Integer> sessions) {
        if (op instanceof CreateSession s) {
            sessions.put(clientId, s.timeoutMs());
        } else if (op instanceof CloseSession c) {
            tree.closeSession(clientId, c.paths(), zxid);
            sessions.remove(clientId);
        } else if (op instanceof Create c) {
            if (!tree.create(c.path(), c.data(), c.acl(), c.owner(), c.parentCversion(), zxid, timeMs)
                    && type == CREATE && tree.node(c.path()) != null) {
                tree.raiseParentCversion(c.path(), c.parentCversion(), zxid);
            }
        } else if (op instanceof Multi m) {
            if (!m.failed()) {
                for (Op sub : m.ops()) {
                    applyOp(sub, tree);
                }
            }
        } else {
            applyOp(op, tree);
        }
    }

    private void applyOp(Op sub, ZkTree tree) {
        if (sub instanceof Create c) {
            tree.create(c.path(), c.data(), c.acl(), c.owner(), c.parentCversion(), zxid, timeMs);
        } else if (sub instanceof Delete d) {
            tree.delete(d.path(), zxid);
        } else if (sub instanceof SetData s) {
            tree.setData(s.path(), s.data(), s.version(), zxid, timeMs);
        } else if (sub instanceof SetAcl s) {
            tree.setAcl(s.path(), s.acl(), s.version());
        }
    }
}

package dev.warden.state.txn;

import dev.warden.protocol.Acl;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.ProtocolException;
import java.util.ArrayList;
import java.util.List;

/** The change a transaction makes. Every field is a final value, never a delta. */
public sealed interface TxnBody {
    /** Creates a node. {@code owner} uses the tree's owner encoding (see NodeOwner). */
    record Create(String path, byte[] data, List<Acl> acl, long owner, int parentCversion) implements TxnBody {
    }

    record Delete(String path) implements TxnBody {
    }

    record SetData(String path, byte[] data, int version) implements TxnBody {
    }

    record SetAcl(String path, List<Acl> acl, int aversion) implements TxnBody {
    }

    record CreateSession(int timeoutMs, byte[] password) implements TxnBody {
    }

    /**
     * Ends the transaction's session and deletes its ephemerals in the order given, fixed when
     * the close was prepared so every replica fires the same events in the same order.
     */
    record CloseSession(List<String> ephemeralPaths) implements TxnBody {
    }

    /** All-or-nothing: every op shares the transaction's zxid. */
    record Multi(List<TxnBody> ops) implements TxnBody {
    }

    /** A check inside a successful multi: changes nothing, kept so results line up with ops. */
    record Check(String path) implements TxnBody {
    }

    /**
     * A configuration change: the new member text (server.N, group.N and weight.N lines, without
     * a version; the transaction's zxid is its version). Applying it sets /zookeeper/config.
     */
    record Reconfig(byte[] memberText) implements TxnBody {
    }

    /**
     * Replaces the whole state (tree and sessions) with a snapshot's: {@code snapshotFile} is a
     * complete Warden snapshot file, exact (no log needed), verified before the transaction was
     * prepared. Its nodes keep the zxids the snapshot gives them; the transaction's zxid becomes
     * the last applied one, so zxids stay monotonic.
     */
    record Restore(byte[] snapshotFile) implements TxnBody {
    }

    /** The tag a reconfiguration's body starts with: the consensus core finds such entries by it. */
    int RECONFIG_TAG = 9;
    int RESTORE_TAG = 10;

    static void write(TxnBody body, JuteWriter out) {
        if (body instanceof Create c) {
            out.writeByte(1);
            out.writeString(c.path());
            out.writeBuffer(c.data());
            out.writeList(c.acl());
            out.writeLong(c.owner());
            out.writeInt(c.parentCversion());
        } else if (body instanceof Delete d) {
            out.writeByte(2);
            out.writeString(d.path());
        } else if (body instanceof SetData s) {
            out.writeByte(3);
            out.writeString(s.path());
            out.writeBuffer(s.data());
            out.writeInt(s.version());
        } else if (body instanceof SetAcl s) {
            out.writeByte(4);
            out.writeString(s.path());
            out.writeList(s.acl());
            out.writeInt(s.aversion());
        } else if (body instanceof CreateSession s) {
            out.writeByte(5);
            out.writeInt(s.timeoutMs());
            out.writeBuffer(s.password());
        } else if (body instanceof CloseSession c) {
            out.writeByte(6);
            out.writeStringList(c.ephemeralPaths());
        } else if (body instanceof Multi m) {
            out.writeByte(7);
            out.writeInt(m.ops().size());
            for (TxnBody op : m.ops()) {
                write(op, out);
            }
        } else if (body instanceof Check c) {
            out.writeByte(8);
            out.writeString(c.path());
        } else if (body instanceof Reconfig r) {
            out.writeByte(RECONFIG_TAG);
            out.writeBuffer(r.memberText());
        } else if (body instanceof Restore r) {
            out.writeByte(RESTORE_TAG);
            out.writeBuffer(r.snapshotFile());
        } else {
            throw new IllegalArgumentException("unknown txn body " + body);
        }
    }

    /** Bytes {@link #write} takes for {@code body}: exact when its strings are ASCII. */
    static int sizeHintBytes(TxnBody body) {
        if (body instanceof Create c) {
            return 1 + JuteWriter.stringSizeHint(c.path()) + bufferBytes(c.data()) + aclBytes(c.acl()) + 8 + 4;
        } else if (body instanceof Delete d) {
            return 1 + JuteWriter.stringSizeHint(d.path());
        } else if (body instanceof SetData s) {
            return 1 + JuteWriter.stringSizeHint(s.path()) + bufferBytes(s.data()) + 4;
        } else if (body instanceof SetAcl s) {
            return 1 + JuteWriter.stringSizeHint(s.path()) + aclBytes(s.acl()) + 4;
        } else if (body instanceof CreateSession s) {
            return 1 + 4 + bufferBytes(s.password());
        } else if (body instanceof CloseSession c) {
            return 1 + JuteWriter.stringListSizeHint(c.ephemeralPaths());
        } else if (body instanceof Multi m) {
            int bytes = 1 + 4;
            for (TxnBody op : m.ops()) {
                bytes += sizeHintBytes(op);
            }
            return bytes;
        } else if (body instanceof Check c) {
            return 1 + JuteWriter.stringSizeHint(c.path());
        } else if (body instanceof Reconfig r) {
            return 1 + bufferBytes(r.memberText());
        } else if (body instanceof Restore r) {
            return 1 + bufferBytes(r.snapshotFile());
        }
        throw new IllegalArgumentException("unknown txn body " + body);
    }

    private static int bufferBytes(byte[] data) {
        return 4 + (data == null ? 0 : data.length);
    }

    private static int aclBytes(List<Acl> acl) {
        if (acl == null) {
            return 4;
        }
        int bytes = 4;
        for (Acl entry : acl) {
            bytes += entry.sizeHintBytes();
        }
        return bytes;
    }

    static TxnBody read(JuteReader in) {
        int tag = in.readByte();
        return switch (tag) {
            case 1 -> new Create(in.readString(), in.readBuffer(), in.readList(Acl::read), in.readLong(), in.readInt());
            case 2 -> new Delete(in.readString());
            case 3 -> new SetData(in.readString(), in.readBuffer(), in.readInt());
            case 4 -> new SetAcl(in.readString(), in.readList(Acl::read), in.readInt());
            case 5 -> new CreateSession(in.readInt(), in.readBuffer());
            case 6 -> new CloseSession(in.readStringList());
            case 7 -> {
                int count = in.readInt();
                List<TxnBody> ops = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    ops.add(read(in));
                }
                yield new Multi(ops);
            }
            case 8 -> new Check(in.readString());
            case RECONFIG_TAG -> {
                byte[] text = in.readBuffer();
                if (text == null) {
                    throw new ProtocolException("reconfiguration without member text");
                }
                yield new Reconfig(text);
            }
            case RESTORE_TAG -> {
                byte[] file = in.readBuffer();
                if (file == null) {
                    throw new ProtocolException("restore without a snapshot");
                }
                yield new Restore(file);
            }
            default -> throw new ProtocolException("unknown txn body tag " + tag);
        };
    }
}

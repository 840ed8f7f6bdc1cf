package dev.warden.consensus;

import dev.warden.consensus.ZabMessage.Ack;
import dev.warden.consensus.ZabMessage.AckEpoch;
import dev.warden.consensus.ZabMessage.AckNewLeader;
import dev.warden.consensus.ZabMessage.AppData;
import dev.warden.consensus.ZabMessage.Commit;
import dev.warden.consensus.ZabMessage.Diff;
import dev.warden.consensus.ZabMessage.EpochBump;
import dev.warden.consensus.ZabMessage.EpochBumpAck;
import dev.warden.consensus.ZabMessage.FollowerInfo;
import dev.warden.consensus.ZabMessage.Inform;
import dev.warden.consensus.ZabMessage.LeaderDurable;
import dev.warden.consensus.ZabMessage.LeaderInfo;
import dev.warden.consensus.ZabMessage.NewLeader;
import dev.warden.consensus.ZabMessage.Ping;
import dev.warden.consensus.ZabMessage.PingAck;
import dev.warden.consensus.ZabMessage.Propose;
import dev.warden.consensus.ZabMessage.Relay;
import dev.warden.consensus.ZabMessage.Snap;
import dev.warden.consensus.ZabMessage.SyncReply;
import dev.warden.consensus.ZabMessage.SyncRequest;
import dev.warden.consensus.ZabMessage.Trunc;
import dev.warden.consensus.ZabMessage.UpToDate;
import dev.warden.consensus.ZabMessage.Vote;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.ProtocolException;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of a {@link ZabMessage} between members: one type byte, then the record's
 * fields in declaration order in jute encoding (big-endian longs, length-prefixed buffers, an
 * int count before a list of entries, each entry a long zxid and a buffer). The frame length
 * is the transport's business, so a frame here is exactly one message.
 *
 * <p>Encoding sizes the frame first and writes it in one pass into an exactly sized array, so a
 * large Propose or Snap is copied once. Decoding checks every length against the bytes left
 * before allocating and throws only {@link ProtocolException}.
 */
public final class ZabCodec {

    private static final byte VOTE = 1;
    private static final byte FOLLOWER_INFO = 2;
    private static final byte LEADER_INFO = 3;
    private static final byte ACK_EPOCH = 4;
    private static final byte DIFF = 5;
    private static final byte TRUNC = 6;
    private static final byte SNAP = 7;
    private static final byte NEW_LEADER = 8;
    private static final byte ACK_NEW_LEADER = 9;
    private static final byte UP_TO_DATE = 10;
    private static final byte PROPOSE = 11;
    private static final byte ACK = 12;
    private static final byte COMMIT = 13;
    private static final byte INFORM = 14;
    private static final byte PING = 15;
    private static final byte PING_ACK = 16;
    private static final byte EPOCH_BUMP = 17;
    private static final byte EPOCH_BUMP_ACK = 18;
    private static final byte SYNC_REQUEST = 19;
    private static final byte SYNC_REPLY = 20;
    private static final byte APP_DATA = 21;
    private static final byte LEADER_DURABLE = 22;
    private static final byte RELAY = 23;

    /** An entry on the wire is at least a zxid and a buffer length. */
    private static final int MIN_ENTRY_BYTES = 12;
    private static final Role[] ROLES = Role.values();

    private ZabCodec() {
    }

    /** The frame for {@code message}; byte arrays inside it must not be null. */
    public static byte[] encode(ZabMessage message) {
        int sizeBytes = encodedSize(message);
        JuteWriter out = new JuteWriter(sizeBytes);
        write(message, out);
        if (out.size() != sizeBytes) {
            throw new IllegalStateException("size estimate " + sizeBytes + " != written " + out.size() + " for "
                    + message.getClass().getSimpleName());
        }
        // JuteWriter never allocates less than 16 bytes, so tiny frames need a trim.
        return out.array().length == sizeBytes ? out.array() : out.toByteArray();
    }

    /**
     * The bytes of a SNAP's frame before the snapshot's own: its type, zxid and the snapshot's
     * length; {@link #encode} of the same SNAP is these followed by the snapshot. A transport
     * that writes the two one after the other never copies the snapshot into a frame.
     */
    public static byte[] snapHead(Snap snap) {
        JuteWriter out = new JuteWriter(1 + 8 + 4);
        out.writeByte(SNAP).writeLong(snap.zxid()).writeInt(nonNull(snap.snapshot(), "Snap.snapshot").length);
        return out.toByteArray();
    }

    /** Appends the frame for {@code message} to {@code out}, e.g. after a length prefix. */
    public static void write(ZabMessage message, JuteWriter out) {
        if (message instanceof Vote m) {
            if (m.senderRole() == null) {
                throw new IllegalArgumentException("Vote.senderRole is null");
            }
            out.writeByte(VOTE).writeLong(m.leaderId()).writeLong(m.leaderZxid()).writeLong(m.leaderEpoch())
                    .writeLong(m.round()).writeByte(m.senderRole().ordinal()).writeLong(m.configVersion());
        } else if (message instanceof FollowerInfo m) {
            out.writeByte(FOLLOWER_INFO).writeLong(m.acceptedEpoch()).writeLong(m.lastZxid()).writeBool(m.observer())
                    .writeBool(m.resyncing());
        } else if (message instanceof LeaderInfo m) {
            out.writeByte(LEADER_INFO).writeLong(m.newEpoch());
        } else if (message instanceof AckEpoch m) {
            out.writeByte(ACK_EPOCH).writeLong(m.currentEpoch()).writeLong(m.lastZxid());
        } else if (message instanceof Diff m) {
            out.writeByte(DIFF).writeLong(m.leaderLastZxid());
        } else if (message instanceof Trunc m) {
            out.writeByte(TRUNC).writeLong(m.toZxid());
        } else if (message instanceof Snap m) {
            out.writeByte(SNAP).writeLong(m.zxid()).writeBuffer(nonNull(m.snapshot(), "Snap.snapshot"));
        } else if (message instanceof NewLeader m) {
            out.writeByte(NEW_LEADER).writeLong(m.epoch()).writeLong(m.lastZxid());
            ConfigurationWire.write(m.configurations(), out);
        } else if (message instanceof AckNewLeader m) {
            out.writeByte(ACK_NEW_LEADER).writeLong(m.epoch());
        } else if (message instanceof UpToDate m) {
            out.writeByte(UP_TO_DATE).writeLong(m.committedZxid());
        } else if (message instanceof Propose m) {
            writeEntries(out.writeByte(PROPOSE), m.entries());
        } else if (message instanceof Ack m) {
            out.writeByte(ACK).writeLong(m.zxid());
        } else if (message instanceof Commit m) {
            out.writeByte(COMMIT).writeLong(m.zxid());
        } else if (message instanceof LeaderDurable m) {
            out.writeByte(LEADER_DURABLE).writeLong(m.zxid());
        } else if (message instanceof Inform m) {
            writeEntries(out.writeByte(INFORM), m.entries());
        } else if (message instanceof Ping m) {
            out.writeByte(PING).writeLong(m.round()).writeLong(m.committedZxid());
        } else if (message instanceof PingAck m) {
            out.writeByte(PING_ACK).writeLong(m.round());
        } else if (message instanceof EpochBump m) {
            out.writeByte(EPOCH_BUMP).writeLong(m.newEpoch());
        } else if (message instanceof EpochBumpAck m) {
            out.writeByte(EPOCH_BUMP_ACK).writeLong(m.newEpoch());
        } else if (message instanceof SyncRequest m) {
            out.writeByte(SYNC_REQUEST).writeLong(m.token());
        } else if (message instanceof SyncReply m) {
            out.writeByte(SYNC_REPLY).writeLong(m.token()).writeLong(m.zxid());
        } else if (message instanceof AppData m) {
            out.writeByte(APP_DATA).writeBuffer(nonNull(m.payload(), "AppData.payload"));
        } else if (message instanceof Relay m) {
            out.writeByte(RELAY).writeLong(m.memberId()).writeBuffer(nonNull(m.payload(), "Relay.payload"));
        } else {
            throw new IllegalArgumentException("unknown message " + message);
        }
    }

    /** The exact number of bytes {@link #encode} produces for {@code message}. */
    public static int encodedSize(ZabMessage message) {
        long size;
        if (message instanceof Vote) {
            size = 1 + 4 * 8 + 1 + 8;
        } else if (message instanceof FollowerInfo) {
            size = 1 + 2 * 8 + 2;
        } else if (message instanceof NewLeader m) {
            size = 1 + 2 * 8 + ConfigurationWire.size(m.configurations());
        } else if (message instanceof AckEpoch || message instanceof Ping
                || message instanceof SyncReply) {
            size = 1 + 2 * 8;
        } else if (message instanceof Snap m) {
            size = 1 + 8 + 4L + nonNull(m.snapshot(), "Snap.snapshot").length;
        } else if (message instanceof Propose m) {
            size = 1 + entriesSize(m.entries());
        } else if (message instanceof Inform m) {
            size = 1 + entriesSize(m.entries());
        } else if (message instanceof AppData m) {
            size = 1 + 4L + nonNull(m.payload(), "AppData.payload").length;
        } else if (message instanceof Relay m) {
            size = 1 + 8 + 4L + nonNull(m.payload(), "Relay.payload").length;
        } else if (message != null) {
            size = 1 + 8; // every other message is one long
        } else {
            throw new IllegalArgumentException("message is null");
        }
        if (size > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException(message.getClass().getSimpleName() + " of " + size
                    + " bytes is too large for one frame");
        }
        return (int) size;
    }

    public static ZabMessage decode(byte[] frame) {
        return decode(frame, 0, frame.length);
    }

    /** Decodes exactly one message from {@code frame[offset, offset + length)}. */
    public static ZabMessage decode(byte[] frame, int offset, int length) {
        if (frame == null || offset < 0 || length < 0 || length > frame.length - offset) {
            throw new ProtocolException("frame slice out of range");
        }
        // The transport bounds the frame; within it a field may take everything that is left.
        JuteReader in = new JuteReader(frame, offset, length, Integer.MAX_VALUE);
        ZabMessage message = read(in);
        in.expectEnd(message.getClass().getSimpleName());
        return message;
    }

    private static ZabMessage read(JuteReader in) {
        byte type = in.readByte();
        return switch (type) {
            case VOTE -> new Vote(in.readLong(), in.readLong(), in.readLong(), in.readLong(), readRole(in),
                    in.readLong());
            case FOLLOWER_INFO -> new FollowerInfo(in.readLong(), in.readLong(), readStrictBool(in),
                    readStrictBool(in));
            case LEADER_INFO -> new LeaderInfo(in.readLong());
            case ACK_EPOCH -> new AckEpoch(in.readLong(), in.readLong());
            case DIFF -> new Diff(in.readLong());
            case TRUNC -> new Trunc(in.readLong());
            case SNAP -> new Snap(in.readLong(), readBytes(in, "Snap.snapshot"));
            case NEW_LEADER -> new NewLeader(in.readLong(), in.readLong(), ConfigurationWire.readConfigurations(in));
            case ACK_NEW_LEADER -> new AckNewLeader(in.readLong());
            case UP_TO_DATE -> new UpToDate(in.readLong());
            case PROPOSE -> new Propose(readEntries(in));
            case ACK -> new Ack(in.readLong());
            case COMMIT -> new Commit(in.readLong());
            case LEADER_DURABLE -> new LeaderDurable(in.readLong());
            case INFORM -> new Inform(readEntries(in));
            case PING -> new Ping(in.readLong(), in.readLong());
            case PING_ACK -> new PingAck(in.readLong());
            case EPOCH_BUMP -> new EpochBump(in.readLong());
            case EPOCH_BUMP_ACK -> new EpochBumpAck(in.readLong());
            case SYNC_REQUEST -> new SyncRequest(in.readLong());
            case SYNC_REPLY -> new SyncReply(in.readLong(), in.readLong());
            case APP_DATA -> new AppData(readBytes(in, "AppData.payload"));
            case RELAY -> new Relay(in.readLong(), readBytes(in, "Relay.payload"));
            default -> throw new ProtocolException("unknown Zab message type " + type);
        };
    }

    private static void writeEntries(JuteWriter out, List<Entry> entries) {
        out.writeInt(entries.size());
        for (Entry entry : entries) {
            out.writeLong(entry.zxid()).writeBuffer(entry.payload());
        }
    }

    private static long entriesSize(List<Entry> entries) {
        long size = 4;
        for (Entry entry : entries) {
            size += MIN_ENTRY_BYTES + entry.payload().length;
        }
        return size;
    }

    private static List<Entry> readEntries(JuteReader in) {
        int count = in.readInt();
        if (count < 0 || (long) count * MIN_ENTRY_BYTES > in.remaining()) {
            throw new ProtocolException("entry count " + count + " does not fit the " + in.remaining() + " bytes left");
        }
        List<Entry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long zxid = in.readLong();
            entries.add(new Entry(zxid, readBytes(in, "entry payload")));
        }
        return entries;
    }

    private static byte[] readBytes(JuteReader in, String what) {
        byte[] bytes = in.readBuffer();
        if (bytes == null) {
            throw new ProtocolException(what + " is null");
        }
        return bytes;
    }

    private static Role readRole(JuteReader in) {
        int ordinal = in.readByte();
        if (ordinal < 0 || ordinal >= ROLES.length) {
            throw new ProtocolException("unknown role " + ordinal);
        }
        return ROLES[ordinal];
    }

    private static boolean readStrictBool(JuteReader in) {
        byte value = in.readByte();
        if (value != 0 && value != 1) {
            throw new ProtocolException("boolean byte " + value);
        }
        return value == 1;
    }

    private static byte[] nonNull(byte[] bytes, String what) {
        if (bytes == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        return bytes;
    }
}

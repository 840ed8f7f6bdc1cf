package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.consensus.Role;
import dev.warden.consensus.ZabCodec;
import dev.warden.consensus.ZabMessage;
import dev.warden.server.peer.PeerWire;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Builds what a stranger sends to a member's peer or election port: noise, lying length fields,
 * hellos that must be refused, and, for the rare connection that names a real member, frames
 * that must never decode (an unknown message type, or a strict prefix of a valid message with
 * an honest length). No input here is a valid Zab message: one from a forged member could
 * mislead the ensemble, and that is not what this fuzz is about.
 */
final class PeerInputFactory {
    /** Message type bytes {@link ZabCodec} knows (1..22); any other byte must be refused. */
    private static final int LAST_KNOWN_TYPE = 22;
    private static final int MAX_RANDOM_BYTES = 4096;
    /** Announced by the huge length fields: the 128 MiB of the original report and 1 GiB. */
    private static final int[] HUGE_LENGTHS = {128 << 20, 1 << 30, Integer.MAX_VALUE};

    private final Random random;
    private final long targetId;
    private final List<Long> otherMembers;
    private final Set<Long> memberIds;

    PeerInputFactory(Random random, long targetId, List<Long> memberIds) {
        this.random = random;
        this.targetId = targetId;
        this.memberIds = Set.copyOf(memberIds);
        this.otherMembers = memberIds.stream().filter(id -> id != targetId).sorted().toList();
    }

    byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    byte[] randomBlob() {
        return randomBytes(1 + random.nextInt(MAX_RANDOM_BYTES));
    }

    /** A length field that is not a hello's: any int but 16, small ones often. */
    int wrongHelloLength() {
        int length;
        do {
            length = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(64);
                case 1 -> -1 - random.nextInt(Integer.MAX_VALUE);
                case 2 -> PeerWire.HELLO_BYTES + (random.nextBoolean() ? 1 : -1) * (1 + random.nextInt(4));
                default -> random.nextInt(Integer.MAX_VALUE);
            };
        } while (length == PeerWire.HELLO_BYTES);
        return length;
    }

    /** A length of at least a megabyte: 128 MiB, 1 GiB, the largest int, or anything in between. */
    int hugeLength() {
        return random.nextInt(3) == 0 ? (1 << 20) + random.nextInt(Integer.MAX_VALUE - (1 << 20))
                : HUGE_LENGTHS[random.nextInt(HUGE_LENGTHS.length)];
    }

    /** A length field followed by a random body of {@code bodyBytes}; the length need not match. */
    byte[] lengthThenBytes(int length, int bodyBytes) {
        return ByteBuffer.allocate(4 + bodyBytes).putInt(length).put(randomBytes(bodyBytes)).array();
    }

    /** A hello-length frame with another magic: a random int, or the right one with a bit flipped. */
    byte[] helloWithBadMagic() {
        int magic;
        do {
            magic = random.nextBoolean() ? random.nextInt() : PeerWire.MAGIC ^ (1 << random.nextInt(32));
        } while (magic == PeerWire.MAGIC);
        return hello(magic, PeerWire.VERSION, anyMemberId());
    }

    /** A hello of another peer protocol version, e.g. a member of version 1. */
    byte[] helloWithBadVersion() {
        int[] likely = {0, 1, 3, -1, Integer.MAX_VALUE};
        int version;
        do {
            version = random.nextBoolean() ? likely[random.nextInt(likely.length)] : random.nextInt();
        } while (version == PeerWire.VERSION);
        return hello(PeerWire.MAGIC, version, anyMemberId());
    }

    /** A correct hello naming no other member: the member itself, 0, negatives, unknown ids. */
    byte[] helloFromNonMember() {
        long[] likely = {targetId, 0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 4, 255, 256};
        long id;
        do {
            id = random.nextBoolean() ? likely[random.nextInt(likely.length)] : random.nextLong();
        } while (id != targetId && memberIds.contains(id));
        return hello(PeerWire.MAGIC, PeerWire.VERSION, id);
    }

    /** The first {@code count} (< 20) bytes of a valid hello from another member. */
    byte[] truncatedHello(int count) {
        return Arrays.copyOf(validHello(anotherMember()), count);
    }

    /** A valid hello frame naming member {@code id}. */
    byte[] validHello(long id) {
        return hello(PeerWire.MAGIC, PeerWire.VERSION, id);
    }

    long anotherMember() {
        return otherMembers.get(random.nextInt(otherMembers.size()));
    }

    private long anyMemberId() {
        return random.nextBoolean() ? anotherMember() : targetId;
    }

    private static byte[] hello(int magic, int version, long id) {
        return ByteBuffer.allocate(PeerWire.LENGTH_BYTES + PeerWire.HELLO_BYTES).putInt(PeerWire.HELLO_BYTES)
                .putInt(magic).putInt(version).putLong(id).putInt(0).array();
    }

    /** An honestly framed body starting with a type byte no Zab message has. */
    byte[] unknownTypeFrame() {
        int type;
        do {
            type = random.nextInt(256) - 128;
        } while (type >= 1 && type <= LAST_KNOWN_TYPE);
        byte[] body = randomBytes(1 + random.nextInt(256));
        body[0] = (byte) type;
        return frame(body);
    }

    /** An honestly framed strict prefix of a valid message, which therefore cannot decode. */
    byte[] truncatedMessageFrame() {
        byte[] whole = ZabCodec.encode(randomMessage());
        return frame(Arrays.copyOf(whole, random.nextInt(whole.length)));
    }

    static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    private ZabMessage randomMessage() {
        long zxid = random.nextLong();
        return switch (random.nextInt(8)) {
            case 0 -> new ZabMessage.Vote(anotherMember(), zxid, random.nextInt(10), random.nextInt(100),
                    Role.values()[random.nextInt(Role.values().length)]);
            case 1 -> new ZabMessage.Ack(zxid);
            case 2 -> new ZabMessage.Commit(zxid);
            case 3 -> new ZabMessage.Ping(random.nextLong(), zxid);
            case 4 -> new ZabMessage.FollowerInfo(random.nextInt(10), zxid, random.nextBoolean());
            case 5 -> new ZabMessage.AppData(randomBytes(random.nextInt(512)));
            case 6 -> new ZabMessage.Snap(zxid, randomBytes(random.nextInt(512)));
            default -> {
                List<Entry> entries = new ArrayList<>();
                int count = 1 + random.nextInt(5);
                for (int i = 0; i < count; i++) {
                    entries.add(new Entry(zxid + i, randomBytes(random.nextInt(128))));
                }
                yield new ZabMessage.Propose(entries);
            }
        };
    }
}

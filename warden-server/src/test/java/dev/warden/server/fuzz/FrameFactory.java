package dev.warden.server.fuzz;

import dev.warden.protocol.Acl;
import dev.warden.protocol.ConnectRequest;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.DeleteRequest;
import dev.warden.protocol.ExistsRequest;
import dev.warden.protocol.GetChildrenRequest;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.Record;
import dev.warden.protocol.RequestHeader;
import dev.warden.protocol.SetDataRequest;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Builds frame bodies (valid ones, then damaged copies) and length prefixes, right and wrong.
 * Valid requests only name paths under /fuzz, and a bit flip cannot turn one into the healthy
 * client's path (it has another length), so the fuzz never edits the data the test checks.
 */
final class FrameFactory {
    /** Opcodes no ZooKeeper version defines, plus the server-internal ones a client must not send. */
    private static final int[] UNKNOWN_OPCODES = {
        -100, -11, -10, -2, 10, 23, 50, 99, 108, 200, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE};
    private static final List<Acl> OPEN_ACL = Perms.OPEN_ACL_UNSAFE;
    private static final int MAX_RANDOM_BODY_BYTES = 2048;

    private final Random random;
    private final int maxFrameBytes;

    FrameFactory(Random random, int maxFrameBytes) {
        this.random = random;
        this.maxFrameBytes = maxFrameBytes;
    }

    byte[] connectRequest(int sessionTimeoutMs) {
        return encode(new ConnectRequest(0, 0, sessionTimeoutMs, 0, new byte[16], false, true));
    }

    /** A well-formed request with a random opcode of the common ones. */
    byte[] validRequest(int xid) {
        String path = "/fuzz" + (random.nextBoolean() ? "" : "/n" + random.nextInt(50));
        byte[] data = new byte[random.nextInt(64)];
        random.nextBytes(data);
        return switch (random.nextInt(7)) {
            case 0 -> encode(new RequestHeader(xid, OpCode.GET_DATA), new GetDataRequest(path, random.nextBoolean()));
            case 1 -> encode(new RequestHeader(xid, OpCode.EXISTS), new ExistsRequest(path, random.nextBoolean()));
            case 2 -> encode(new RequestHeader(xid, OpCode.GET_CHILDREN), new GetChildrenRequest(path, false));
            case 3 -> encode(new RequestHeader(xid, OpCode.SET_DATA), new SetDataRequest(path, data, -1));
            case 4 -> encode(new RequestHeader(xid, OpCode.DELETE), new DeleteRequest(path, -1));
            case 5 -> encode(new RequestHeader(xid, OpCode.CREATE2),
                    new CreateRequest(path, data, OPEN_ACL, random.nextInt(8)));
            default -> encode(new RequestHeader(xid, OpCode.CREATE), new CreateRequest(path, data, OPEN_ACL, 0));
        };
    }

    /** A valid header with an opcode the server must reject, and a random body. */
    byte[] unknownOpcodeRequest(int xid) {
        int opCode = random.nextInt(4) == 0 ? random.nextInt() : UNKNOWN_OPCODES[random.nextInt(UNKNOWN_OPCODES.length)];
        byte[] header = encode(new RequestHeader(xid, opCode));
        return concat(header, randomBytes(random.nextInt(64)));
    }

    /** A known opcode followed by a random body the record decoder has to survive. */
    byte[] knownOpcodeGarbageBody(int xid) {
        int[] known = {OpCode.CREATE, OpCode.DELETE, OpCode.EXISTS, OpCode.GET_DATA, OpCode.SET_DATA, OpCode.GET_ACL,
            OpCode.SET_ACL, OpCode.GET_CHILDREN, OpCode.SYNC, OpCode.PING, OpCode.GET_CHILDREN2, OpCode.CHECK,
            OpCode.MULTI, OpCode.CREATE2, OpCode.RECONFIG, OpCode.CHECK_WATCHES, OpCode.REMOVE_WATCHES,
            OpCode.CREATE_CONTAINER, OpCode.CREATE_TTL, OpCode.MULTI_READ, OpCode.AUTH, OpCode.SET_WATCHES,
            OpCode.SASL, OpCode.GET_EPHEMERALS, OpCode.GET_ALL_CHILDREN_NUMBER, OpCode.SET_WATCHES2,
            OpCode.ADD_WATCH, OpCode.WHO_AM_I};
        byte[] header = encode(new RequestHeader(xid, known[random.nextInt(known.length)]));
        return concat(header, randomBytes(random.nextInt(128)));
    }

    byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    byte[] randomBody() {
        return randomBytes(random.nextInt(MAX_RANDOM_BODY_BYTES));
    }

    /** A copy with some damage: flipped bits, a cut, an overwritten run, or bytes appended. */
    byte[] mutate(byte[] body) {
        byte[] copy = body.clone();
        switch (random.nextInt(4)) {
            case 0 -> {
                int flips = 1 + random.nextInt(4);
                for (int i = 0; i < flips && copy.length > 0; i++) {
                    copy[random.nextInt(copy.length)] ^= (byte) (1 << random.nextInt(8));
                }
                return copy;
            }
            case 1 -> {
                return Arrays.copyOf(copy, copy.length == 0 ? 0 : random.nextInt(copy.length));
            }
            case 2 -> {
                if (copy.length > 0) {
                    int from = random.nextInt(copy.length);
                    int to = Math.min(copy.length, from + 1 + random.nextInt(8));
                    byte fill = random.nextBoolean() ? (byte) 0xff : (byte) random.nextInt();
                    Arrays.fill(copy, from, to, fill);
                }
                return copy;
            }
            default -> {
                return concat(copy, randomBytes(1 + random.nextInt(32)));
            }
        }
    }

    /** The honest length prefix followed by the body. */
    static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    /**
     * A length prefix that lies: negative, above the frame limit, or a few bytes off. A short
     * lie desynchronizes the stream; a long one leaves the server waiting for bytes never sent.
     */
    byte[] frameWithWrongLength(byte[] body) {
        int length = switch (random.nextInt(5)) {
            case 0 -> -1 - random.nextInt(Integer.MAX_VALUE);
            case 1 -> maxFrameBytes + 1 + random.nextInt(1024);
            case 2 -> Integer.MAX_VALUE;
            default -> Math.max(0, body.length + (random.nextBoolean() ? 1 : -1) * (1 + random.nextInt(8)));
        };
        return ByteBuffer.allocate(4 + body.length).putInt(length).put(body).array();
    }

    /** Just the prefix of a frame far above the limit, and a little of its body. */
    byte[] oversizedFrameStart() {
        int length = maxFrameBytes + 1 + random.nextInt(Integer.MAX_VALUE - maxFrameBytes - 1);
        return ByteBuffer.allocate(4 + 64).putInt(length).put(randomBytes(64)).array();
    }

    private static byte[] encode(Record... records) {
        JuteWriter writer = new JuteWriter();
        for (Record record : records) {
            record.writeTo(writer);
        }
        return writer.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

package dev.warden.protocol;

import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random values for any wire record, built from its components' declared types, so every
 * record class gets the same coverage: edge integers, null vs empty strings, buffers and vectors,
 * and non-ASCII text. Strings stay inside the BMP without surrogates: that is the range where
 * Apache's per-char encoder and standard UTF-8 agree (see {@code GoldenBytesTest}).
 */
final class RandomRecords {
    private static final int[] EDGE_INTS = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x7f, 0x80, 0xff};
    private static final long[] EDGE_LONGS = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 0xffffffffL, 1L << 32};
    private static final String SAMPLE_CHARS = "/abcxyz09._-: \u0000\u007f\u0080\u00e9\u00ff\u0100\u07ff\u0800"
            + "\u20ac\u4e2d\ud7ff\ue000\uffef\ufffd";
    /** Sub-op types a multi request may carry, each with the record type that follows its header. */
    private static final int[] WRITE_SUB_OP_TYPES = {OpCode.CREATE, OpCode.CREATE2, OpCode.CREATE_CONTAINER,
        OpCode.CREATE_TTL, OpCode.DELETE, OpCode.SET_DATA, OpCode.CHECK};
    private static final int[] READ_SUB_OP_TYPES = {OpCode.GET_CHILDREN, OpCode.GET_DATA};
    private static final int[] RESULT_TYPES = {OpCode.CREATE, OpCode.CREATE2, OpCode.DELETE, OpCode.CHECK,
        OpCode.SET_DATA, OpCode.GET_CHILDREN, OpCode.GET_DATA, OpCode.ERROR};

    private final Random random;

    RandomRecords(Random random) {
        this.random = random;
    }

    Record any(Class<? extends Record> type) {
        if (type == MultiRequest.class) {
            return multiRequest();
        }
        if (type == MultiResponse.class) {
            return multiResponse();
        }
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            values[i] = value(components[i].getGenericType());
        }
        if (type == DeleteContainerRequest.class && values[0] == null) {
            // Apache writes this path as a buffer and cannot encode or decode a null one.
            values[0] = "";
        }
        for (int i = 0; i < components.length; i++) {
            // Without the optional byte on the wire, readOnly can only decode as false.
            if (components[i].getName().equals("readOnlyPresent") && !(Boolean) values[i]) {
                values[i - 1] = false;
            }
        }
        try {
            Constructor<? extends Record> constructor = type.getDeclaredConstructor(types);
            return constructor.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot build " + type.getSimpleName(), e);
        }
    }

    private Object value(Type type) {
        if (type == int.class) {
            return random.nextInt(3) == 0 ? EDGE_INTS[random.nextInt(EDGE_INTS.length)] : random.nextInt();
        }
        if (type == long.class) {
            return random.nextInt(3) == 0 ? EDGE_LONGS[random.nextInt(EDGE_LONGS.length)] : random.nextLong();
        }
        if (type == boolean.class) {
            return random.nextBoolean();
        }
        if (type == String.class) {
            return string();
        }
        if (type == byte[].class) {
            return buffer();
        }
        if (type instanceof ParameterizedType list && list.getRawType() == List.class) {
            if (random.nextInt(8) == 0) {
                return null;
            }
            Type element = list.getActualTypeArguments()[0];
            int size = random.nextInt(5);
            List<Object> values = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                values.add(value(element));
            }
            return values;
        }
        if (type instanceof Class<?> nested && Record.class.isAssignableFrom(nested)) {
            return any(nested.asSubclass(Record.class));
        }
        throw new IllegalArgumentException("no generator for " + type);
    }

    String string() {
        int kind = random.nextInt(10);
        if (kind == 0) {
            return null;
        }
        if (kind == 1) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(24);
        for (int i = 0; i < length; i++) {
            text.append(random.nextBoolean()
                    ? SAMPLE_CHARS.charAt(random.nextInt(SAMPLE_CHARS.length()))
                    : bmpNonSurrogate());
        }
        return text.toString();
    }

    private char bmpNonSurrogate() {
        while (true) {
            char c = (char) random.nextInt(0x10000);
            if (!Character.isSurrogate(c)) {
                return c;
            }
        }
    }

    byte[] buffer() {
        int kind = random.nextInt(8);
        if (kind == 0) {
            return null;
        }
        byte[] bytes = new byte[kind == 1 ? 0 : random.nextInt(40)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A multi (writes only) or a multiRead (reads only): Apache refuses to mix the two. */
    MultiRequest multiRequest() {
        int[] types = random.nextBoolean() ? WRITE_SUB_OP_TYPES : READ_SUB_OP_TYPES;
        int count = random.nextInt(6);
        List<MultiRequest.Op> ops = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int type = types[random.nextInt(types.length)];
            ops.add(new MultiRequest.Op(type, subOpRequest(type)));
        }
        return new MultiRequest(ops);
    }

    /**
     * Apache's Op factories derive the sub-op type from the create flags and drop the watch flag
     * of read sub-ops, and its reader cannot rebuild a TTL create without an ACL list, so the
     * values drawn here are the ones a real client can send.
     */
    private Record subOpRequest(int type) {
        return switch (type) {
            case OpCode.CREATE, OpCode.CREATE2 -> withFlags((CreateRequest) any(CreateRequest.class), random.nextInt(4));
            case OpCode.CREATE_CONTAINER -> withFlags((CreateRequest) any(CreateRequest.class), CreateMode.CONTAINER.flags());
            case OpCode.CREATE_TTL -> {
                CreateTTLRequest drawn = (CreateTTLRequest) any(CreateTTLRequest.class);
                yield new CreateTTLRequest(drawn.path(), drawn.data(), nonNull(drawn.acl()), 5 + random.nextInt(2),
                        drawn.ttl());
            }
            case OpCode.DELETE -> any(DeleteRequest.class);
            case OpCode.SET_DATA -> any(SetDataRequest.class);
            case OpCode.CHECK -> any(CheckVersionRequest.class);
            case OpCode.GET_CHILDREN -> new GetChildrenRequest(string(), false);
            case OpCode.GET_DATA -> new GetDataRequest(string(), false);
            default -> throw new IllegalArgumentException("sub-op " + type);
        };
    }

    private static CreateRequest withFlags(CreateRequest drawn, int flags) {
        return new CreateRequest(drawn.path(), drawn.data(), nonNull(drawn.acl()), flags);
    }

    private static List<Acl> nonNull(List<Acl> acl) {
        return acl == null ? Perms.OPEN_ACL_UNSAFE : acl;
    }

    MultiResponse multiResponse() {
        int count = random.nextInt(6);
        List<MultiResponse.Result> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int type = RESULT_TYPES[random.nextInt(RESULT_TYPES.length)];
            results.add(switch (type) {
                case OpCode.CREATE -> new MultiResponse.Result(type, 0, any(CreateResponse.class));
                case OpCode.CREATE2 -> new MultiResponse.Result(type, 0, any(Create2Response.class));
                case OpCode.SET_DATA -> new MultiResponse.Result(type, 0, any(SetDataResponse.class));
                case OpCode.GET_CHILDREN -> new MultiResponse.Result(type, 0, any(GetChildrenResponse.class));
                case OpCode.GET_DATA -> new MultiResponse.Result(type, 0, any(GetDataResponse.class));
                case OpCode.ERROR -> MultiResponse.Result.error((int) value(int.class));
                default -> new MultiResponse.Result(type, 0, null);
            });
        }
        return new MultiResponse(results);
    }
}

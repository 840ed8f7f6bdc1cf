package dev.warden.protocol;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.jute.BinaryOutputArchive;
import org.apache.zookeeper.MultiOperationRecord;
import org.apache.zookeeper.compat.ProtocolManager;

/**
 * Encodes and decodes Warden record values the way Apache ZooKeeper 3.9.5 does. The optional
 * readOnly byte of the handshake goes through Apache's own {@link ProtocolManager}, which is
 * what its server and client use to cope with pre-3.4 peers.
 */
final class ApacheOracle {
    private ApacheOracle() {
    }

    static byte[] encode(Record ours) {
        if (ours instanceof MultiRequest request
                && !request.ops().stream().allMatch(ApacheMultiMirror::hasApacheFactory)) {
            // No public factory makes a create2 sub-op, but Apache's reader does: decode, then encode.
            return reencode(MultiRequest.class, ours.toBytes());
        }
        Object apache = ApacheMirror.toApache(ours);
        if (ours instanceof ConnectRequest request && !request.readOnlyPresent()) {
            // Apache's client always writes readOnly; an old client's frame is that minus the last byte.
            byte[] full = ApacheJute.encode((org.apache.jute.Record) apache);
            return Arrays.copyOf(full, full.length - 1);
        }
        if (ours instanceof ConnectResponse response) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try {
                managerThatSaw(response.readOnlyPresent()).serializeConnectResponse(
                        (org.apache.zookeeper.proto.ConnectResponse) apache, BinaryOutputArchive.getArchive(bytes));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }
        return ApacheJute.encode((org.apache.jute.Record) apache);
    }

    /** Decodes bytes meant to hold a record of {@code type} with Apache's reader for that type. */
    static Object decode(Class<? extends Record> type, byte[] encoded) {
        if (type == ConnectRequest.class) {
            return ApacheJute.decodeWith(encoded, in -> new ProtocolManager().deserializeConnectRequest(in));
        }
        if (type == ConnectResponse.class) {
            // A fresh manager probes for the optional byte, as Apache's client does on its first connect.
            return ApacheJute.decodeWith(encoded, in -> new ProtocolManager().deserializeConnectResponse(in));
        }
        if (type == MultiRequest.class) {
            return ApacheJute.decode(encoded, new MultiOperationRecord());
        }
        if (type == MultiResponse.class) {
            return ApacheJute.decode(encoded, new org.apache.zookeeper.MultiResponse());
        }
        try {
            Object target = ApacheMirror.apacheClassOf(type).getConstructor().newInstance();
            return ApacheJute.decode(encoded, (org.apache.jute.Record) target);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Decodes with Apache and encodes the result again: Apache's canonical form of these bytes. */
    static byte[] reencode(Class<? extends Record> type, byte[] encoded) {
        return ApacheJute.encode((org.apache.jute.Record) decode(type, encoded));
    }

    /** A manager that has read a ConnectRequest with or without the readOnly byte. */
    private static ProtocolManager managerThatSaw(boolean readOnlyPresent) {
        ProtocolManager manager = new ProtocolManager();
        byte[] request = new ConnectRequest(0, 0, 30_000, 0, new byte[16], false, readOnlyPresent).toBytes();
        ApacheJute.decodeWith(request, in -> manager.deserializeConnectRequest(in));
        return manager;
    }
}

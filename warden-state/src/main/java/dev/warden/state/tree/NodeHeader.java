package dev.warden.state.tree;

import java.io.DataInputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** The fixed-size part of a node record in a tree snapshot (see {@link TreeSnapshot}), big-endian. */
final class NodeHeader {
    static final int BYTES = 3 * 4 + 5 * 8 + 3 * 4 + 8 + 4;
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final byte[] buffer = new byte[BYTES];
    int nameLength;
    int dataLength;
    int aclIndex;
    long czxid;
    long ctime;
    long mzxid;
    long mtime;
    long pzxid;
    int version;
    int cversionCounter;
    int aversion;
    long owner;
    int childCount;

    void read(DataInputStream in) throws IOException {
        in.readFully(buffer);
        nameLength = (int) INT.get(buffer, 0);
        dataLength = (int) INT.get(buffer, 4);
        aclIndex = (int) INT.get(buffer, 8);
        czxid = (long) LONG.get(buffer, 12);
        ctime = (long) LONG.get(buffer, 20);
        mzxid = (long) LONG.get(buffer, 28);
        mtime = (long) LONG.get(buffer, 36);
        pzxid = (long) LONG.get(buffer, 44);
        version = (int) INT.get(buffer, 52);
        cversionCounter = (int) INT.get(buffer, 56);
        aversion = (int) INT.get(buffer, 60);
        owner = (long) LONG.get(buffer, 64);
        childCount = (int) INT.get(buffer, 72);
    }

    /** A header from its fields (a node built elsewhere, see {@link TreeImageWriter}), as bytes ready to write. */
    byte[] encode(int nameLength, int dataLength, int aclIndex, long czxid, long ctime, long mzxid, long mtime,
                  long pzxid, int version, int cversionCounter, int aversion, long owner, int childCount) {
        INT.set(buffer, 0, nameLength);
        INT.set(buffer, 4, dataLength);
        INT.set(buffer, 8, aclIndex);
        LONG.set(buffer, 12, czxid);
        LONG.set(buffer, 20, ctime);
        LONG.set(buffer, 28, mzxid);
        LONG.set(buffer, 36, mtime);
        LONG.set(buffer, 44, pzxid);
        INT.set(buffer, 52, version);
        INT.set(buffer, 56, cversionCounter);
        INT.set(buffer, 60, aversion);
        LONG.set(buffer, 64, owner);
        INT.set(buffer, 72, childCount);
        return buffer;
    }

    /** The header of node, with the given ACL index and child count, as bytes ready to write. */
    byte[] encode(DataNode node, int aclIndex, int childCount) {
        INT.set(buffer, 0, node.name.length);
        INT.set(buffer, 4, node.data == null ? -1 : node.data.length);
        INT.set(buffer, 8, aclIndex);
        LONG.set(buffer, 12, node.czxid);
        LONG.set(buffer, 20, node.ctime);
        LONG.set(buffer, 28, node.mzxid());
        LONG.set(buffer, 36, node.mtime());
        LONG.set(buffer, 44, node.pzxid());
        INT.set(buffer, 52, node.version());
        INT.set(buffer, 56, node.cversionCounter());
        INT.set(buffer, 60, node.aversion());
        LONG.set(buffer, 64, node.owner());
        INT.set(buffer, 72, childCount);
        return buffer;
    }
}

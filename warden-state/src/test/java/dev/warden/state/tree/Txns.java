package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Perms;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Short-hand transactions for tree tests; zxid doubles as the time so Stats are predictable. */
final class Txns {
    private Txns() {
    }

    static Txn create(long zxid, String path, String data) {
        return create(zxid, path, data, NodeOwner.PERSISTENT);
    }

    static Txn create(long zxid, String path, String data, long owner) {
        return new Txn(1, 0, zxid, zxid, new TxnBody.Create(path, bytes(data), Perms.OPEN_ACL_UNSAFE, owner, 0));
    }

    static Txn createWithCversion(long zxid, String path, int parentCversion) {
        return new Txn(1, 0, zxid, zxid, new TxnBody.Create(path, bytes(""), Perms.OPEN_ACL_UNSAFE,
                NodeOwner.PERSISTENT, parentCversion));
    }

    static Txn delete(long zxid, String path) {
        return new Txn(1, 0, zxid, zxid, new TxnBody.Delete(path));
    }

    static Txn setData(long zxid, String path, String data, int version) {
        return new Txn(1, 0, zxid, zxid, new TxnBody.SetData(path, bytes(data), version));
    }

    static Txn setAcl(long zxid, String path, List<Acl> acl, int aversion) {
        return new Txn(1, 0, zxid, zxid, new TxnBody.SetAcl(path, acl, aversion));
    }

    static Txn closeSession(long zxid, long sessionId, List<String> paths) {
        return new Txn(sessionId, 0, zxid, zxid, new TxnBody.CloseSession(paths));
    }

    static byte[] bytes(String data) {
        return data.getBytes(StandardCharsets.UTF_8);
    }
}

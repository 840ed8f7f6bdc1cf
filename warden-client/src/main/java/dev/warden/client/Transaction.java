package dev.warden.client;

import dev.warden.protocol.Acl;
import dev.warden.protocol.CheckVersionRequest;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.DeleteRequest;
import dev.warden.protocol.MultiRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.SetDataRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An atomic batch of writes ({@code client.transaction().create(..).setData(..).check(..).commit()}):
 * all apply with one zxid or none does. Not thread-safe; build it on one thread.
 */
public final class Transaction {
    private final WardenClient client;
    private final List<MultiRequest.Op> ops = new ArrayList<>();
    private final List<String> opPaths = new ArrayList<>();

    Transaction(WardenClient client) {
        this.client = client;
    }

    public Transaction create(String path, byte[] data, CreateMode mode) {
        return create(path, data, Perms.OPEN_ACL_UNSAFE, mode);
    }

    public Transaction create(String path, byte[] data, List<Acl> acl, CreateMode mode) {
        if (mode.isTtl()) {
            throw new IllegalArgumentException("use createTtl for " + mode);
        }
        return addCreate(path, data, acl, mode, -1);
    }

    public Transaction createTtl(String path, byte[] data, List<Acl> acl, CreateMode mode, Duration ttl) {
        return addCreate(path, data, acl, mode, ttl.toMillis());
    }

    private Transaction addCreate(String path, byte[] data, List<Acl> acl, CreateMode mode, long ttlMs) {
        if (mode.isSequential()) {
            Paths.validateSequential(path);
        } else {
            Paths.validate(path);
        }
        ops.add(new MultiRequest.Op(Requests.multiCreateOpCode(mode),
                Requests.create(client.paths().toServer(path), data, acl, mode, ttlMs)));
        opPaths.add(path);
        return this;
    }

    /** Deletes {@code path} if its version matches ({@code -1} for any). */
    public Transaction delete(String path, int version) {
        Paths.validate(path);
        ops.add(new MultiRequest.Op(OpCode.DELETE, new DeleteRequest(client.paths().toServer(path), version)));
        opPaths.add(path);
        return this;
    }

    public Transaction setData(String path, byte[] data, int version) {
        Paths.validate(path);
        ops.add(new MultiRequest.Op(OpCode.SET_DATA, new SetDataRequest(client.paths().toServer(path), data, version)));
        opPaths.add(path);
        return this;
    }

    /** Fails the transaction unless {@code path} exists with this version ({@code -1} for any). */
    public Transaction check(String path, int version) {
        Paths.validate(path);
        ops.add(new MultiRequest.Op(OpCode.CHECK, new CheckVersionRequest(client.paths().toServer(path), version)));
        opPaths.add(path);
        return this;
    }

    public int size() {
        return ops.size();
    }

    /**
     * Sends the batch. Completes with one result per operation, or fails with the exception of
     * the first failing operation ({@link WardenException#failedOpIndex()} says which). Never
     * retried on connection loss. An empty transaction completes at once without a round trip.
     */
    public CompletableFuture<List<OpResult>> commit() {
        if (ops.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        return client.commit(List.copyOf(ops), List.copyOf(opPaths));
    }
}

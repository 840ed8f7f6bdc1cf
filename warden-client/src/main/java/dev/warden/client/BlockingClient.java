package dev.warden.client;

import dev.warden.protocol.Acl;
import dev.warden.protocol.ClientInfo;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Stat;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A blocking view of a {@link WardenClient} ({@code client.blocking(Duration.ofSeconds(5))}):
 * the same operations, each waiting at most the view's timeout. Failures are thrown as the
 * operation's {@link WardenException} (not wrapped); running out of time throws
 * {@link WardenException.TimeoutException} while the request itself stays queued. An
 * interrupt throws {@link WardenException.TimeoutException} too, with the interrupt flag kept.
 * Never call it from a completion or watcher callback of the same client.
 */
public final class BlockingClient {
    private final WardenClient client;
    private final Duration timeout;

    BlockingClient(WardenClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
    }

    public WardenClient async() {
        return client;
    }

    /** Waits for any of the client's futures with this view's timeout, unwrapping the failure. */
    public <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WardenException.TimeoutException("interrupted while waiting");
        } catch (java.util.concurrent.TimeoutException e) {
            throw new WardenException.TimeoutException("no reply within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(cause);
        }
    }

    public String create(String path, byte[] data, CreateMode mode) {
        return await(client.create(path, data, mode));
    }

    public String create(String path, byte[] data, List<Acl> acl, CreateMode mode) {
        return await(client.create(path, data, acl, mode));
    }

    public CreateResult createWithStat(String path, byte[] data, List<Acl> acl, CreateMode mode) {
        return await(client.createWithStat(path, data, acl, mode));
    }

    public CreateResult createTtl(String path, byte[] data, List<Acl> acl, CreateMode mode, Duration ttl) {
        return await(client.createTtl(path, data, acl, mode, ttl));
    }

    public CreateResult createProtected(String path, byte[] data, List<Acl> acl, CreateMode mode) {
        return await(client.createProtected(path, data, acl, mode));
    }

    public void delete(String path) {
        await(client.delete(path));
    }

    public void delete(String path, int version) {
        await(client.delete(path, version));
    }

    public Optional<Stat> exists(String path) {
        return await(client.exists(path));
    }

    public Optional<Stat> exists(String path, Watcher watcher) {
        return await(client.exists(path, watcher));
    }

    public DataAndStat getData(String path) {
        return await(client.getData(path));
    }

    public DataAndStat getData(String path, Watcher watcher) {
        return await(client.getData(path, watcher));
    }

    public Stat setData(String path, byte[] data) {
        return await(client.setData(path, data));
    }

    public Stat setData(String path, byte[] data, int version) {
        return await(client.setData(path, data, version));
    }

    public List<String> getChildren(String path) {
        return await(client.getChildren(path));
    }

    public List<String> getChildren(String path, Watcher watcher) {
        return await(client.getChildren(path, watcher));
    }

    public ChildrenAndStat getChildrenAndStat(String path) {
        return await(client.getChildrenAndStat(path));
    }

    public ChildrenAndStat getChildrenAndStat(String path, Watcher watcher) {
        return await(client.getChildrenAndStat(path, watcher));
    }

    public AclAndStat getACL(String path) {
        return await(client.getACL(path));
    }

    public Stat setACL(String path, List<Acl> acl, int aclVersion) {
        return await(client.setACL(path, acl, aclVersion));
    }

    public void sync(String path) {
        await(client.sync(path));
    }

    public List<OpResult> commit(Transaction transaction) {
        return await(transaction.commit());
    }

    public List<OpResult> multiRead(List<ReadOp> reads) {
        return await(client.multiRead(reads));
    }

    public WatchHandle addWatch(String path, WatchMode mode, Watcher watcher) {
        return await(client.addWatch(path, mode, watcher));
    }

    public void removeWatches(String path, WatchKind kind) {
        await(client.removeWatches(path, kind));
    }

    public List<String> getEphemerals(String prefix) {
        return await(client.getEphemerals(prefix));
    }

    public int getAllChildrenNumber(String path) {
        return await(client.getAllChildrenNumber(path));
    }

    public List<ClientInfo> whoAmI() {
        return await(client.whoAmI());
    }

    public void addAuth(String scheme, byte[] auth) {
        await(client.addAuth(scheme, auth));
    }
}

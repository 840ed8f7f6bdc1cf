package dev.warden.client;

import dev.warden.protocol.Acl;
import dev.warden.protocol.AddWatchRequest;
import dev.warden.protocol.ClientInfo;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.DeleteRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.ExistsRequest;
import dev.warden.protocol.GetACLRequest;
import dev.warden.protocol.GetACLResponse;
import dev.warden.protocol.GetAllChildrenNumberRequest;
import dev.warden.protocol.GetAllChildrenNumberResponse;
import dev.warden.protocol.GetChildren2Request;
import dev.warden.protocol.GetChildren2Response;
import dev.warden.protocol.GetChildrenRequest;
import dev.warden.protocol.GetChildrenResponse;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.GetDataResponse;
import dev.warden.protocol.GetEphemeralsRequest;
import dev.warden.protocol.GetEphemeralsResponse;
import dev.warden.protocol.MultiRequest;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.Record;
import dev.warden.protocol.SetACLRequest;
import dev.warden.protocol.SetACLResponse;
import dev.warden.protocol.SetDataRequest;
import dev.warden.protocol.SetDataResponse;
import dev.warden.protocol.Stat;
import dev.warden.protocol.SyncRequest;
import dev.warden.protocol.WatcherType;
import dev.warden.protocol.WhoAmIResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The Warden client: one session with a ZooKeeper-protocol ensemble (Warden or Apache ZooKeeper).
 *
 * <p>Every operation is asynchronous and returns a {@link CompletableFuture}. Futures complete
 * on the client's completion executor (by default one thread per client), one at a time and in
 * the order the requests were submitted; watch events go through the same queue, in the order
 * the server sent them, so a watcher always runs before the completion of a later request that
 * saw the change. Do not block on a future from inside a callback of the same client: the
 * callback thread is the one that would complete it. For blocking code use
 * {@link #blocking(Duration)}.
 *
 * <p>Failures are {@link WardenException}s (wrapped in {@code CompletionException} by
 * {@code join()}); invalid paths and arguments throw {@link IllegalArgumentException} at the call.
 * Paths are relative to the chroot of the connect string.
 *
 * <p>Back-pressure: at most {@code maxOutstandingRequests} requests are on the wire; more wait
 * in the client's queue (their futures simply complete later) up to {@code maxQueuedRequests}
 * queued plus in flight, beyond which a request fails at once with
 * {@link WardenException.TooManyRequestsException}. A request whose frame exceeds
 * {@code maxFrameBytes} fails at once with {@link WardenException.RequestTooLargeException}.
 */
public final class WardenClient implements AutoCloseable {
    private final ClientConfig config;
    private final Paths paths;
    private final WatchTables watches;
    private final SessionDriver driver;
    private final ClientMetrics metrics;
    private final WatchRemovals removals;

    WardenClient(ClientConfig config, Paths paths, WatchTables watches, SessionDriver driver, ClientMetrics metrics) {
        this.config = config;
        this.paths = paths;
        this.watches = watches;
        this.driver = driver;
        this.metrics = metrics;
        this.removals = new WatchRemovals(this, paths, watches);
    }

    /** Starts configuring a client; see {@link WardenClientBuilder}. */
    public static WardenClientBuilder builder() {
        return new WardenClientBuilder();
    }

    CompletableFuture<Void> firstConnect() {
        return driver.firstConnect();
    }

    /** The session id, or 0 before the first session is established. */
    public long sessionId() {
        return driver.sessionId();
    }

    /** Adds a listener for connection state changes (see {@link ConnectionState}). */
    public void addStateListener(StateListener listener) {
        driver.addListener(listener);
    }

    /** Connection state changes, outstanding requests and request latency of this client. */
    public ClientMetrics metrics() {
        return metrics;
    }

    /** The server this client has its session through now; empty while it is not connected. */
    public Optional<java.net.InetSocketAddress> connectedServer() {
        return driver.connectedServer();
    }

    /**
     * Gives the client a new list of servers ({@code host:port,...}; a chroot, if present, must
     * be the one the client has), e.g. after the ensemble was reconfigured. The host provider
     * decides whether this client moves (see {@link StaticHostProvider}: just enough clients
     * move, at random, for all of them to spread evenly over the new list); a client whose
     * server left always moves. Moving drops the connection (SUSPENDED) and re-attaches the
     * session elsewhere (RECONNECTED). Completes with whether this client is moving.
     */
    public CompletableFuture<Boolean> updateServerList(String connectString) {
        ConnectString parsed = ConnectString.parse(connectString);
        if (!parsed.chroot().isEmpty() && !parsed.chroot().equals(paths.chroot())) {
            throw new IllegalArgumentException("updateServerList cannot change the chroot from '" + paths.chroot()
                    + "' to '" + parsed.chroot() + "'; leave the chroot out or build a new client");
        }
        return driver.updateServerList(parsed.hosts());
    }

    /** A view for reconfiguring the ensemble (ZooKeeper's admin API). */
    public WardenAdmin admin() {
        return new WardenAdmin(this);
    }

    /**
     * The ensemble's current configuration: the data of {@code /zookeeper/config} (server lines
     * and {@code version=<hex>}) and its Stat. The node is read outside the chroot.
     */
    public CompletableFuture<DataAndStat> getConfig() {
        return getConfig(null);
    }

    /**
     * As {@link #getConfig()}, leaving a one-shot watch that fires (path
     * {@code /zookeeper/config}) when the configuration changes, whatever the chroot; it is
     * re-registered after a reconnect like any data watch.
     */
    public CompletableFuture<DataAndStat> getConfig(Watcher watcher) {
        String node = WatchTables.CONFIG_NODE;
        return call(OpCode.GET_DATA, new GetDataRequest(node, watcher != null), node, true,
                Replies.ok(node, in -> {
                    GetDataResponse response = GetDataResponse.read(in);
                    registerIfSet(WatchTables.Table.CONFIG, node, watcher);
                    return new DataAndStat(response.data(), response.stat());
                }));
    }

    /** A blocking view of this client whose calls wait at most {@code timeout}. */
    public BlockingClient blocking(Duration timeout) {
        return new BlockingClient(this, timeout);
    }

    // ---- create ----

    /** Creates a node with an open ACL; returns the created path. */
    public CompletableFuture<String> create(String path, byte[] data, CreateMode mode) {
        return create(path, data, Perms.OPEN_ACL_UNSAFE, mode);
    }

    /** Creates a node (not for TTL modes, see {@link #createTtl}); returns the created path. */
    public CompletableFuture<String> create(String path, byte[] data, List<Acl> acl, CreateMode mode) {
        return createNode(path, data, acl, mode, -1, false).thenApply(CreateResult::path);
    }

    /** Creates a node and returns its path and Stat (the create2 opcode). */
    public CompletableFuture<CreateResult> createWithStat(String path, byte[] data, List<Acl> acl, CreateMode mode) {
        return createNode(path, data, acl, mode, -1, true);
    }

    /**
     * Creates a TTL node ({@link CreateMode#PERSISTENT_WITH_TTL} or
     * {@link CreateMode#PERSISTENT_SEQUENTIAL_WITH_TTL}); the server deletes it once it has no
     * children and was not modified for {@code ttl}. Needs TTL support enabled on the server.
     */
    public CompletableFuture<CreateResult> createTtl(String path, byte[] data, List<Acl> acl, CreateMode mode, Duration ttl) {
        if (!mode.isTtl()) {
            throw new IllegalArgumentException("createTtl needs a TTL mode, not " + mode);
        }
        return createNode(path, data, acl, mode, ttl.toMillis(), true);
    }

    /**
     * Creates a node safely across connection loss, which matters for sequential and ephemeral
     * nodes where a blind retry could leave a duplicate or an orphan. The last path component
     * is prefixed with {@code _p_<uuid>-} (so {@code /q/item-} becomes
     * {@code /q/_p_<uuid>-item-0000000007}). If the connection drops before the reply, the
     * client lists the parent once reconnected and, if a child carries that uuid, returns it;
     * otherwise it creates again (as far as the retry policy allows).
     */
    public CompletableFuture<CreateResult> createProtected(String path, byte[] data, List<Acl> acl, CreateMode mode) {
        return new ProtectedCreate(this, config.retryPolicy(), path, data, acl, mode).start();
    }

    CompletableFuture<CreateResult> createNode(String path, byte[] data, List<Acl> acl, CreateMode mode,
                                               long ttlMs, boolean withStat) {
        Record request = Requests.create(paths.toServer(checkCreatePath(path, mode)), data, acl, mode, ttlMs);
        int opCode = Requests.createOpCode(mode, withStat);
        return call(opCode, request, path, false, Replies.ok(path, in -> Replies.created(opCode, in, paths)));
    }

    private static String checkCreatePath(String path, CreateMode mode) {
        if (mode.isSequential()) {
            Paths.validateSequential(path);
        } else {
            Paths.validate(path);
        }
        return path;
    }

    // ---- reads and writes ----

    /** Deletes a node whatever its version. */
    public CompletableFuture<Void> delete(String path) {
        return delete(path, -1);
    }

    /** Deletes a node if its data version matches ({@code -1} matches any). */
    public CompletableFuture<Void> delete(String path, int version) {
        Paths.validate(path);
        return call(OpCode.DELETE, new DeleteRequest(paths.toServer(path), version), path, version >= 0,
                Replies.ok(path, in -> null));
    }

    /** The node's Stat, or empty if it does not exist. */
    public CompletableFuture<Optional<Stat>> exists(String path) {
        return exists(path, null);
    }

    /**
     * Like {@link #exists(String)}, leaving a one-shot watch that fires on create, delete or
     * data change, whether or not the node exists now.
     */
    public CompletableFuture<Optional<Stat>> exists(String path, Watcher watcher) {
        Paths.validate(path);
        return call(OpCode.EXISTS, new ExistsRequest(paths.toServer(path), watcher != null), path, true, (err, in) -> {
            if (err == ErrorCode.NO_NODE.code()) {
                if (watcher != null) {
                    watches.add(WatchTables.Table.EXIST, path, watcher);
                }
                return Optional.empty();
            }
            Replies.check(err, path);
            Stat stat = Stat.read(in);
            if (watcher != null) {
                watches.add(WatchTables.Table.DATA, path, watcher);
            }
            return Optional.of(stat);
        });
    }

    public CompletableFuture<DataAndStat> getData(String path) {
        return getData(path, null);
    }

    /** Reads data and Stat, leaving a one-shot watch (data change or delete) on success. */
    public CompletableFuture<DataAndStat> getData(String path, Watcher watcher) {
        Paths.validate(path);
        return call(OpCode.GET_DATA, new GetDataRequest(paths.toServer(path), watcher != null), path, true,
                Replies.ok(path, in -> {
                    GetDataResponse response = GetDataResponse.read(in);
                    registerIfSet(WatchTables.Table.DATA, path, watcher);
                    return new DataAndStat(response.data(), response.stat());
                }));
    }

    /** Replaces the data whatever the version; returns the new Stat. */
    public CompletableFuture<Stat> setData(String path, byte[] data) {
        return setData(path, data, -1);
    }

    /** Replaces the data if the version matches ({@code -1} matches any); returns the new Stat. */
    public CompletableFuture<Stat> setData(String path, byte[] data, int version) {
        Paths.validate(path);
        return call(OpCode.SET_DATA, new SetDataRequest(paths.toServer(path), data, version), path, version >= 0,
                Replies.ok(path, in -> SetDataResponse.read(in).stat()));
    }

    public CompletableFuture<List<String>> getChildren(String path) {
        return getChildren(path, null);
    }

    /** The child names, leaving a one-shot child watch (child created/deleted, node deleted) on success. */
    public CompletableFuture<List<String>> getChildren(String path, Watcher watcher) {
        Paths.validate(path);
        return call(OpCode.GET_CHILDREN, new GetChildrenRequest(paths.toServer(path), watcher != null), path, true,
                Replies.ok(path, in -> {
                    List<String> children = GetChildrenResponse.read(in).children();
                    registerIfSet(WatchTables.Table.CHILD, path, watcher);
                    return children;
                }));
    }

    public CompletableFuture<ChildrenAndStat> getChildrenAndStat(String path) {
        return getChildrenAndStat(path, null);
    }

    /** The child names with the node's Stat (getChildren2), optionally leaving a child watch. */
    public CompletableFuture<ChildrenAndStat> getChildrenAndStat(String path, Watcher watcher) {
        Paths.validate(path);
        return call(OpCode.GET_CHILDREN2, new GetChildren2Request(paths.toServer(path), watcher != null), path, true,
                Replies.ok(path, in -> {
                    GetChildren2Response response = GetChildren2Response.read(in);
                    registerIfSet(WatchTables.Table.CHILD, path, watcher);
                    return new ChildrenAndStat(response.children(), response.stat());
                }));
    }

    public CompletableFuture<AclAndStat> getACL(String path) {
        Paths.validate(path);
        return call(OpCode.GET_ACL, new GetACLRequest(paths.toServer(path)), path, true, Replies.ok(path, in -> {
            GetACLResponse response = GetACLResponse.read(in);
            return new AclAndStat(response.acl(), response.stat());
        }));
    }

    /** Replaces the ACL if the ACL version (aversion) matches ({@code -1} matches any). */
    public CompletableFuture<Stat> setACL(String path, List<Acl> acl, int aclVersion) {
        Paths.validate(path);
        return call(OpCode.SET_ACL, new SetACLRequest(paths.toServer(path), acl, aclVersion), path, aclVersion >= 0,
                Replies.ok(path, in -> SetACLResponse.read(in).stat()));
    }

    /** Completes once the connected server has caught up with the leader (for a following read). */
    public CompletableFuture<Void> sync(String path) {
        Paths.validate(path);
        return call(OpCode.SYNC, new SyncRequest(paths.toServer(path)), path, true, Replies.ok(path, in -> null));
    }

    /** Starts an atomic multi-operation; nothing is sent until {@link Transaction#commit()}. */
    public Transaction transaction() {
        return new Transaction(this);
    }

    CompletableFuture<List<OpResult>> commit(List<MultiRequest.Op> ops, List<String> opPaths) {
        return call(OpCode.MULTI, new MultiRequest(ops), null, false,
                Replies.ok(null, in -> Replies.multi(in, opPaths, paths, true)));
    }

    Paths paths() {
        return paths;
    }

    /**
     * Several reads in one round trip. Not atomic: each read is evaluated on its own and a
     * failing one yields {@link OpResult.Failed} without failing the others.
     */
    public CompletableFuture<List<OpResult>> multiRead(List<ReadOp> reads) {
        List<MultiRequest.Op> ops = new ArrayList<>(reads.size());
        List<String> opPaths = new ArrayList<>(reads.size());
        for (ReadOp read : reads) {
            String serverPath = paths.toServer(read.path());
            ops.add(read.kind() == ReadOp.Kind.GET_DATA
                    ? new MultiRequest.Op(OpCode.GET_DATA, new GetDataRequest(serverPath, false))
                    : new MultiRequest.Op(OpCode.GET_CHILDREN, new GetChildrenRequest(serverPath, false)));
            opPaths.add(read.path());
        }
        return call(OpCode.MULTI_READ, new MultiRequest(ops), null, true,
                Replies.ok(null, in -> Replies.multi(in, opPaths, paths, false)));
    }

    // ---- watches ----

    /**
     * Adds a persistent (or persistent-recursive) watch; the handle removes it. The watch
     * survives reconnects and fires until closed.
     */
    public CompletableFuture<WatchHandle> addWatch(String path, WatchMode mode, Watcher watcher) {
        Paths.validate(path);
        WatchTables.Table table = mode == WatchMode.PERSISTENT ? WatchTables.Table.PERSISTENT : WatchTables.Table.RECURSIVE;
        int wireMode = mode == WatchMode.PERSISTENT ? WatcherType.ADD_WATCH_PERSISTENT : WatcherType.ADD_WATCH_PERSISTENT_RECURSIVE;
        return call(OpCode.ADD_WATCH, new AddWatchRequest(paths.toServer(path), wireMode), path, true,
                Replies.ok(path, in -> {
                    watches.add(table, path, watcher);
                    return new WatchHandle(path, mode, () -> removals.dropPersistent(table, path, watcher, mode));
                }));
    }

    /**
     * Removes this session's watches of a kind at a path, on the server and locally; local
     * watchers get a *_WATCH_REMOVED event. Fails with code NO_WATCHER if there was none.
     * Same as {@code removeAllWatches(path, kind, false)}.
     */
    public CompletableFuture<Void> removeWatches(String path, WatchKind kind) {
        return removeAllWatches(path, kind, false);
    }

    /**
     * Removes every watcher of a kind at a path. If none is registered here the call fails at
     * once with code NO_WATCHER, without asking the server. With {@code local} the watchers are
     * removed on this side only, which works while disconnected (the server's watch then fires
     * into nothing, and is not re-registered after a reconnect); without it the server removes
     * its watch first, and a failure there (NO_WATCHER, connection loss) leaves the watchers in
     * place. Each removed watcher hears a *_WATCH_REMOVED event.
     */
    public CompletableFuture<Void> removeAllWatches(String path, WatchKind kind, boolean local) {
        return removals.removeAll(path, kind, local);
    }

    /**
     * Removes one watcher (as passed to getData, exists, getChildren or addWatch) of a kind at a
     * path, as ZooKeeper's {@code removeWatches(path, watcher, type, local)}: it fails at once
     * with code NO_WATCHER if that watcher is not registered there. With {@code local} it goes
     * on this side only. Otherwise, if it was the last watcher of that kind at the path, the
     * server removes its watch; if others remain, the server is asked whether it still holds
     * the watch (checkWatches) and the server's watch stays for them. The watcher hears a
     * *_WATCH_REMOVED event.
     */
    public CompletableFuture<Void> removeWatcher(String path, Watcher watcher, WatchKind kind, boolean local) {
        return removals.removeOne(path, watcher, kind, local);
    }

    private void registerIfSet(WatchTables.Table table, String path, Watcher watcher) {
        if (watcher != null) {
            watches.add(table, path, watcher);
        }
    }

    // ---- session-wide ----

    /** Paths of this session's ephemerals that start with {@code prefix} ("/" for all). */
    public CompletableFuture<List<String>> getEphemerals(String prefix) {
        return call(OpCode.GET_EPHEMERALS, new GetEphemeralsRequest(paths.toServer(prefix)), prefix, true,
                Replies.ok(prefix, in -> {
                    List<String> out = new ArrayList<>();
                    for (String serverPath : GetEphemeralsResponse.read(in).ephemerals()) {
                        String clientPath = paths.toClient(serverPath);
                        if (clientPath != null) {
                            out.add(clientPath);
                        }
                    }
                    return out;
                }));
    }

    /** The number of all descendants of a node (not only its children). */
    public CompletableFuture<Integer> getAllChildrenNumber(String path) {
        Paths.validate(path);
        return call(OpCode.GET_ALL_CHILDREN_NUMBER, new GetAllChildrenNumberRequest(paths.toServer(path)), path, true,
                Replies.ok(path, in -> GetAllChildrenNumberResponse.read(in).totalNumber()));
    }

    /** The identities the server associates with this connection (ip, digest, ...). */
    public CompletableFuture<List<ClientInfo>> whoAmI() {
        return call(OpCode.WHO_AM_I, null, null, true, Replies.ok(null, in -> WhoAmIResponse.read(in).clientInfo()));
    }

    /**
     * Adds credentials (e.g. scheme "digest", auth "user:password") to this session; they are
     * re-sent on every reconnect. A failed auth makes the server drop the connection; the
     * client then reconnects without that credential.
     */
    public CompletableFuture<Void> addAuth(String scheme, byte[] auth) {
        return driver.addAuth(scheme, auth);
    }

    // ---- plumbing ----

    <T> CompletableFuture<T> call(int opCode, Record request, String path, boolean idempotent,
                                  Packet.ReplyDecoder<T> decoder) {
        byte[] frame = Frames.request(0, opCode, request);
        int frameBytes = frame.length - 4;
        if (frameBytes > config.maxFrameBytes()) {
            return CompletableFuture.failedFuture(
                    new WardenException.RequestTooLargeException(path, frameBytes, config.maxFrameBytes()));
        }
        return driver.submit(new Packet<>(opCode, path, idempotent, frame, decoder, System.nanoTime()));
    }

    /** Closes the session (its ephemerals go at once) and releases the client's threads. */
    public CompletableFuture<Void> closeAsync() {
        Packet<Void> closeSession = new Packet<>(OpCode.CLOSE_SESSION, null, false,
                Frames.request(0, OpCode.CLOSE_SESSION, null), (err, in) -> null, System.nanoTime());
        return driver.close(closeSession);
    }

    /** Closes the session, waiting at most the connect timeout for the server to confirm. */
    @Override
    public void close() {
        try {
            closeAsync().get(config.connectTimeoutMs() + 1000L, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // Already lost or the server did not answer: the client is closed either way.
        }
    }
}

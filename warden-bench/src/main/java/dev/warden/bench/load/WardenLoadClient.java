package dev.warden.bench.load;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenClientBuilder;
import dev.warden.client.WardenException;
import dev.warden.client.WatchEvent;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.tls.TlsSettings;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** {@link LoadClient} over Warden's own client. */
final class WardenLoadClient implements LoadClient {
    private final WardenClient client;

    private WardenLoadClient(WardenClient client) {
        this.client = client;
    }

    /** @param hostsInGivenOrder as for {@link ApacheLoadClient#connect} */
    static WardenLoadClient connect(String connectString, int sessionTimeoutMs, int maxFrameBytes,
                                    boolean hostsInGivenOrder, LoadClientTls tls) throws IOException, InterruptedException {
        WardenClientBuilder builder = WardenClient.builder()
                .connectString(connectString)
                .sessionTimeout(Duration.ofMillis(sessionTimeoutMs))
                .maxFrameBytes(maxFrameBytes);
        if (hostsInGivenOrder) {
            builder.hostsInGivenOrder();
        }
        if (tls.enabled()) {
            builder.tls(TlsSettings.parse(LoadClientTls.SSL_PREFIX, tls.zookeeperProperties()::get));
        }
        CompletableFuture<WardenClient> connecting = builder.connect();
        try {
            return new WardenLoadClient(connecting.get(sessionTimeoutMs, TimeUnit.MILLISECONDS));
        } catch (ExecutionException | TimeoutException e) {
            connecting.thenAccept(WardenClient::close);
            throw new IOException("no session with " + connectString + ": " + e, e);
        }
    }

    @Override
    public void setData(String path, byte[] data, Done done) {
        client.setData(path, data).whenComplete((stat, failure) -> done.done(rc(failure)));
    }

    @Override
    public void setData(String path, byte[] data, int expectedVersion, Versioned done) {
        client.setData(path, data, expectedVersion).whenComplete(
                (stat, failure) -> done.versioned(rc(failure), stat == null ? -1 : stat.version()));
    }

    @Override
    public void getData(String path, Done done) {
        client.getData(path).whenComplete((read, failure) -> done.done(rc(failure)));
    }

    @Override
    public void exists(String path, Done done) {
        client.exists(path).whenComplete((stat, failure) -> done.done(existsRc(stat != null && stat.isPresent(), failure)));
    }

    @Override
    public void create(String path, byte[] data, boolean ephemeralSequential, Created done) {
        CreateMode mode = ephemeralSequential ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.PERSISTENT;
        client.create(path, data, mode).whenComplete((name, failure) -> done.created(rc(failure), name));
    }

    @Override
    public void delete(String path, Done done) {
        client.delete(path).whenComplete((ignored, failure) -> done.done(rc(failure)));
    }

    @Override
    public void getChildren(String path, Children done) {
        client.getChildren(path).whenComplete(
                (names, failure) -> done.children(rc(failure), names == null ? List.of() : names));
    }

    @Override
    public void existsWatch(String path, Runnable onChange, Done done) {
        client.exists(path, event -> onNodeEvent(event, onChange))
                .whenComplete((stat, failure) -> done.done(existsRc(stat != null && stat.isPresent(), failure)));
    }

    @Override
    public void getDataWatch(String path, Runnable onChange, Done done) {
        client.getData(path, event -> onNodeEvent(event, onChange))
                .whenComplete((read, failure) -> done.done(rc(failure)));
    }

    private static void onNodeEvent(WatchEvent event, Runnable onChange) {
        switch (event.kind()) {
            case NODE_CREATED, NODE_DELETED, NODE_DATA_CHANGED, NODE_CHILDREN_CHANGED -> onChange.run();
            default -> { } // a watch removed locally is not a change to the node
        }
    }

    /** exists answers "absent" as a value; the workloads expect ZooKeeper's NONODE code for it. */
    private static int existsRc(boolean present, Throwable failure) {
        if (failure != null) {
            return rc(failure);
        }
        return present ? 0 : ErrorCode.NO_NODE.code();
    }

    static int rc(Throwable failure) {
        if (failure == null) {
            return 0;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof WardenException w ? w.code().code() : ErrorCode.SYSTEM_ERROR.code();
    }

    @Override
    public void close() {
        client.close();
    }
}

package dev.warden.bench.load;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ClientCnxnSocketNIO;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.ZKClientConfig;

/** {@link LoadClient} over the Apache ZooKeeper Java client's asynchronous API. */
final class ApacheLoadClient implements LoadClient {
    /** The client's socket implementation, chosen per session through its {@link ZKClientConfig}. */
    enum Socket {
        NETTY(ClientCnxnSocketNetty.class),
        NIO(ClientCnxnSocketNIO.class);

        private final Class<?> implementation;

        Socket(Class<?> implementation) {
            this.implementation = implementation;
        }

        String className() {
            return implementation.getName();
        }
    }

    private final ZooKeeper zk;

    private ApacheLoadClient(ZooKeeper zk) {
        this.zk = zk;
    }

    /**
     * @param hostsInGivenOrder try the connect string's hosts in order (the first is the session's
     *                          home, see {@link SessionPlacement}) instead of the client's shuffle
     */
    static ApacheLoadClient connect(String connectString, int sessionTimeoutMs, int maxFrameBytes,
                                    boolean hostsInGivenOrder, Socket socket, LoadClientTls tls)
            throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        Watcher onConnected = event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        };
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, socket.className());
        // the same frame limit as the Warden client gets: the Apache client's own default (1 MiB)
        // refuses a reply such as getChildren of 100,000 children
        config.setProperty(ZKClientConfig.JUTE_MAXBUFFER, Integer.toString(maxFrameBytes));
        // per session, not as system properties: one JVM may run plaintext and TLS loads in turn
        tls.zookeeperProperties().forEach(config::setProperty);
        ZooKeeper zk = hostsInGivenOrder
                ? new ZooKeeper(connectString, sessionTimeoutMs, onConnected, false,
                        new InOrderHostProvider(new ConnectStringParser(connectString).getServerAddresses()), config)
                : new ZooKeeper(connectString, sessionTimeoutMs, onConnected, config);
        if (!connected.await(sessionTimeoutMs, TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IOException("no session with " + connectString + " within " + sessionTimeoutMs + " ms");
        }
        return new ApacheLoadClient(zk);
    }

    /** The socket implementation this session's client was configured with. */
    String socketClassName() {
        return zk.getClientConfig().getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET);
    }

    @Override
    public void setData(String path, byte[] data, Done done) {
        zk.setData(path, data, -1, (rc, p, ctx, stat) -> done.done(rc), null);
    }

    @Override
    public void setData(String path, byte[] data, int expectedVersion, Versioned done) {
        zk.setData(path, data, expectedVersion,
                (rc, p, ctx, stat) -> done.versioned(rc, stat == null ? -1 : stat.getVersion()), null);
    }

    @Override
    public void getData(String path, Done done) {
        zk.getData(path, false, (rc, p, ctx, data, stat) -> done.done(rc), null);
    }

    @Override
    public void exists(String path, Done done) {
        zk.exists(path, false, (rc, p, ctx, stat) -> done.done(rc), null);
    }

    @Override
    public void create(String path, byte[] data, boolean ephemeralSequential, Created done) {
        CreateMode mode = ephemeralSequential ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.PERSISTENT;
        zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, mode, (rc, p, ctx, name) -> done.created(rc, name), null);
    }

    @Override
    public void delete(String path, Done done) {
        zk.delete(path, -1, (rc, p, ctx) -> done.done(rc), null);
    }

    @Override
    public void getChildren(String path, Children done) {
        zk.getChildren(path, false, (rc, p, ctx, names) -> done.children(rc, names == null ? List.of() : names), null);
    }

    @Override
    public void existsWatch(String path, Runnable onChange, Done done) {
        zk.exists(path, oneShot(onChange), (rc, p, ctx, stat) -> done.done(rc), null);
    }

    @Override
    public void getDataWatch(String path, Runnable onChange, Done done) {
        zk.getData(path, oneShot(onChange), (rc, p, ctx, data, stat) -> done.done(rc), null);
    }

    /** Connection-state events also reach watchers; only node events count as a change. */
    private static Watcher oneShot(Runnable onChange) {
        return (WatchedEvent event) -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                onChange.run();
            }
        };
    }

    @Override
    public void close() {
        try {
            zk.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

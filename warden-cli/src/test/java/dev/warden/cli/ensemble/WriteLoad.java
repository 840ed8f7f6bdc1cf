package dev.warden.cli.ensemble;

import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberPorts;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.ZooKeeper;

/**
 * Several Apache-client sessions writing distinct keys at once, each starting on a different
 * member (client i on member i mod n), all free to fail over to any member.
 */
final class WriteLoad implements AutoCloseable {
    static final String ROOT = "/load";
    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(30);

    private final List<LoadClient> clients = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();

    private WriteLoad() {
    }

    /** Creates {@link #ROOT} and starts the sessions. */
    static WriteLoad start(LocalCluster cluster, int sessionCount, int keysPerSession, int sessionTimeoutMs)
            throws Exception {
        try (ZooKeeper setup = Ensembles.connect(cluster.connectString(), sessionTimeoutMs)) {
            setup.create(ROOT, new byte[0], org.apache.zookeeper.ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    org.apache.zookeeper.CreateMode.PERSISTENT);
        }
        List<InetSocketAddress> members = new ArrayList<>();
        for (int id : cluster.ids()) {
            MemberPorts ports = cluster.member(id).ports();
            members.add(new InetSocketAddress("127.0.0.1", ports.clientPort()));
        }
        WriteLoad load = new WriteLoad();
        for (int i = 0; i < sessionCount; i++) {
            int firstMember = i % members.size();
            LoadClient client = new LoadClient(i, ROOT, keysPerSession,
                    () -> new ZooKeeper(cluster.connectString(), sessionTimeoutMs, event -> { }, false,
                            new RotatingHostProvider(members, firstMember)),
                    load.stop);
            Thread thread = new Thread(client, "load-client-" + i);
            load.clients.add(client);
            load.threads.add(thread);
            thread.start();
        }
        return load;
    }

    long acknowledged() {
        return clients.stream().mapToLong(LoadClient::acknowledged).sum();
    }

    /**
     * Waits until every session has had {@code writesEach} more writes acknowledged than now:
     * proof that each one, wherever it was connected, failed over and carries on.
     */
    void awaitEveryClientProgresses(int writesEach, Duration timeout, String context) throws InterruptedException {
        long[] before = clients.stream().mapToLong(LoadClient::acknowledged).toArray();
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        for (int i = 0; i < clients.size(); i++) {
            LoadClient client = clients.get(i);
            while (client.acknowledged() < before[i] + writesEach) {
                requireNoUnexpected();
                if (System.nanoTime() > deadlineNs) {
                    throw new AssertionError(context + ": load client " + i + " made " + (client.acknowledged()
                            - before[i]) + " acknowledged writes in " + timeout + ", expected " + writesEach
                            + " (did it fail over?)");
                }
                Thread.sleep(50);
            }
        }
    }

    void requireNoUnexpected() {
        for (LoadClient client : clients) {
            if (client.unexpected() != null) {
                throw new AssertionError("load client " + client.clientId + " got an unexpected error",
                        client.unexpected());
            }
        }
    }

    /** Stops and joins every session; their ledgers are readable afterwards. */
    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(JOIN_TIMEOUT.toMillis());
            if (thread.isAlive()) {
                throw new AssertionError(thread.getName() + " did not stop within " + JOIN_TIMEOUT);
            }
        }
        requireNoUnexpected();
    }

    List<KeyLedger> ledgers() {
        return clients.stream().flatMap(c -> c.keys().stream()).toList();
    }

    /** Sessions the load clients were told had expired (each then opened a new one). */
    long expirations() {
        return clients.stream().mapToLong(LoadClient::expirations).sum();
    }

    String summary() {
        return "load: " + clients.size() + " sessions, " + acknowledged() + " acknowledged writes, "
                + clients.stream().mapToLong(LoadClient::unanswered).sum() + " unanswered, "
                + expirations() + " session expirations";
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(JOIN_TIMEOUT.toMillis());
        }
    }
}

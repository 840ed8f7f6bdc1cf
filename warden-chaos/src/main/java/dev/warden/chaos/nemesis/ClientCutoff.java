package dev.warden.chaos.nemesis;

import dev.warden.chaos.history.History;
import dev.warden.chaos.net.LinkState;
import dev.warden.chaos.net.Network;
import dev.warden.chaos.run.ChaosEnsemble;
import dev.warden.chaos.workload.WorkloadNodes;
import dev.warden.chaos.workload.Zk;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The session fault: a fresh client, reaching the members only through its own relays, creates an
 * ephemeral node; then every relay of that client drops everything, both ways. Another client
 * (connected directly) syncs and checks for the node every 100 ms and records when it went
 * ({@code session}/{@code expiry}: invoked at the cut).
 */
public final class ClientCutoff {
    public static final String WORKLOAD = "session";
    public static final String ROOT = "/chaos-eph";
    private static final int CLIENT_ID_BASE = 1_000;

    private final ChaosEnsemble ensemble;
    private final History history;
    private final int sessionTimeoutMs;
    private final int tickTimeMs;
    private int cuts;

    public ClientCutoff(ChaosEnsemble ensemble, History history, int sessionTimeoutMs, int tickTimeMs) {
        this.ensemble = ensemble;
        this.history = history;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.tickTimeMs = tickTimeMs;
    }

    /**
     * The session timeout, plus up to two ticks of the expiry check's rounding, plus 1.5 s to commit the
     * close and see it; the owner's last contact is never after the cut, so nothing else is owed.
     */
    public long allowedMs() {
        return sessionTimeoutMs + 2L * tickTimeMs + 1_500;
    }

    Fault fault() {
        return new Fault() {
            private ZooKeeper owner;
            private ZooKeeper observer;
            private int node;
            private Thread watcher;

            @Override
            public String apply() throws Exception {
                int n = ++cuts;
                node = Network.FIRST_CLIENT_NODE + n;
                String viaRelays = ensemble.network().addClientGroup(node);
                owner = Zk.connect(viaRelays, sessionTimeoutMs, null, 10_000);
                observer = Zk.connect(ensemble.connectString(), 10_000, null, 10_000);
                if (owner == null || observer == null) {
                    return "no session to cut off (no quorum?)";
                }
                WorkloadNodes.ensure(observer, ROOT, "");
                String path = owner.create(ROOT + "/e-" + n, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.EPHEMERAL);
                for (int member : ensemble.ids()) {
                    ensemble.network().links().set(node, member, new LinkState(true, 0, 0, 0));
                    ensemble.network().links().set(member, node, new LinkState(true, 0, 0, 0));
                }
                History.Pending expiry = history.invoke(CLIENT_ID_BASE + n, WORKLOAD, "expiry", path,
                        Map.of("allowedMs", allowedMs(), "timeoutMs", (long) sessionTimeoutMs,
                                "session", owner.getSessionId()));
                long cutNs = System.nanoTime();
                ZooKeeper look = observer;
                watcher = new Thread(() -> watchFor(look, path, expiry, cutNs), "session-cutoff-" + n);
                watcher.setDaemon(true);
                watcher.start();
                return "client session 0x" + Long.toHexString(owner.getSessionId()) + " (timeout " + sessionTimeoutMs
                        + " ms) holding " + path + " cut off from every member";
            }

            @Override
            public List<String> heal() throws InterruptedException {
                if (watcher != null) {
                    watcher.join(allowedMs() + 15_000);
                }
                for (int member : ensemble.ids()) {
                    ensemble.network().links().set(node, member, LinkState.CLEAN);
                    ensemble.network().links().set(member, node, LinkState.CLEAN);
                }
                Zk.closeQuietly(owner);
                Zk.closeQuietly(observer);
                return List.of();
            }
        };
    }

    private void watchFor(ZooKeeper observer, String path, History.Pending expiry, long cutNs) {
        long giveUpNs = cutNs + (allowedMs() + 10_000) * 1_000_000L;
        String lastError = "";
        try {
            while (System.nanoTime() < giveUpNs) {
                try {
                    Zk.sync(observer, path, 5_000);
                    if (observer.exists(path, false) == null) {
                        expiry.ok(Map.of("goneAfterMs", (System.nanoTime() - cutNs) / 1_000_000));
                        return;
                    }
                } catch (KeeperException e) {
                    lastError = e.code().name();
                }
                Thread.sleep(100);
            }
            expiry.unknown("STILL_THERE" + (lastError.isEmpty() ? "" : " (last error " + lastError + ")"));
        } catch (InterruptedException e) {
            expiry.unknown("INTERRUPTED");
        }
    }
}

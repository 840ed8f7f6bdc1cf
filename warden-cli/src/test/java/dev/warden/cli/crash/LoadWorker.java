package dev.warden.cli.crash;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * One client thread of the write load: plain and sequential creates, versioned setData on its
 * own counter node, and two-node multis. Every request is entered in the {@link Ledger} as in
 * flight before it is sent and as acknowledged once its success comes back. The first lost
 * connection ends the worker: from then on nothing it sent is known.
 */
final class LoadWorker implements Runnable {
    private static final int MAX_DATA_BYTES = 512;

    private final ZooKeeper zk;
    private final Ledger ledger;
    private final int cycle;
    private final Random random;
    private final AtomicBoolean stop;
    /** Anything but a lost connection: the server answered wrongly. */
    private final AtomicReference<Throwable> unexpected = new AtomicReference<>();
    private int acknowledged;
    private int sequence;

    LoadWorker(ZooKeeper zk, Ledger ledger, int cycle, long seed, AtomicBoolean stop) {
        this.zk = zk;
        this.ledger = ledger;
        this.cycle = cycle;
        this.random = new Random(seed);
        this.stop = stop;
    }

    @Override
    public void run() {
        try {
            while (!stop.get()) {
                int pick = random.nextInt(100);
                if (pick < 40) {
                    createPlain();
                } else if (pick < 60) {
                    createSequential();
                } else if (pick < 85) {
                    setCounter();
                } else {
                    createPair();
                }
                acknowledged++;
            }
        } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException
                 | KeeperException.SessionMovedException lost) {
            // the server went away mid-request: the ledger already holds the request as in flight
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            unexpected.set(t);
        }
    }

    int acknowledged() {
        return acknowledged;
    }

    Throwable unexpected() {
        return unexpected.get();
    }

    private String nextName(String kind) {
        return kind + ledger.workerId + "-c" + cycle + "-" + (sequence++);
    }

    private void createPlain() throws KeeperException, InterruptedException {
        String name = nextName("p");
        byte[] data = new byte[1 + random.nextInt(MAX_DATA_BYTES)];
        random.nextBytes(data);
        ledger.uncertainCreates.put(name, data);
        zk.create(Ledger.ROOT + "/" + name, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        ledger.uncertainCreates.remove(name);
        ledger.ackedCreates.put(name, data);
    }

    private void createSequential() throws KeeperException, InterruptedException {
        String payload = "seq " + ledger.workerId + " " + cycle + " " + (sequence++);
        byte[] data = payload.getBytes(StandardCharsets.UTF_8);
        ledger.sequentialPayloads.add(payload);
        String path = zk.create(Ledger.ROOT + "/" + Ledger.sequentialPrefix(ledger.workerId), data,
                ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
        ledger.ackedCreates.put(path.substring(Ledger.ROOT.length() + 1), data);
    }

    private void setCounter() throws KeeperException, InterruptedException {
        int next = ledger.counterVersion + 1;
        ledger.counterUncertain = true;
        int version = zk.setData(ledger.counterPath(), Ledger.counterData(next), ledger.counterVersion).getVersion();
        if (version != next) {
            throw new AssertionError(ledger.counterPath() + " went to version " + version + ", expected " + next);
        }
        ledger.counterVersion = version;
        ledger.counterUncertain = false;
    }

    private void createPair() throws KeeperException, InterruptedException {
        String name = nextName("m");
        List<String> pair = List.of(name + "-a", name + "-b");
        byte[] data = name.getBytes(StandardCharsets.UTF_8);
        ledger.uncertainMultis.add(pair);
        zk.multi(List.of(
                Op.create(Ledger.ROOT + "/" + pair.get(0), data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.create(Ledger.ROOT + "/" + pair.get(1), data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT)));
        ledger.uncertainMultis.remove(ledger.uncertainMultis.size() - 1);
        ledger.ackedCreates.put(pair.get(0), data);
        ledger.ackedCreates.put(pair.get(1), data);
    }
}

package dev.warden.bench.load;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The closed-loop request workloads: every session keeps {@code inFlightPerSession} requests
 * outstanding, each slot issuing its next request from the previous one's completion.
 */
final class RequestDriver implements LoadDriver {
    private final LoadSpec spec;
    private final List<LoadClient> clients;
    private final LoadRecorder recorder;
    private final byte[] value;
    private final String[] keys;
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile boolean running = true;

    RequestDriver(LoadSpec spec, List<LoadClient> clients, LoadRecorder recorder) {
        this.spec = spec;
        this.clients = List.copyOf(clients);
        this.recorder = recorder;
        this.value = LoadSetup.value(spec.valueSizeBytes());
        this.keys = LoadSetup.keyPaths(spec);
    }

    @Override
    public void start() {
        for (int session = 0; session < clients.size(); session++) {
            for (int slot = 0; slot < spec.inFlightPerSession(); slot++) {
                issue(new Slot(clients.get(session), session, slot,
                        keys[(session * spec.inFlightPerSession() + slot) % keys.length]));
            }
        }
    }

    /**
     * One of a session's in-flight positions; create+delete keeps the node it created here, a
     * compare-and-set its own key and the version its last write left there.
     */
    private static final class Slot {
        final LoadClient client;
        final String namePrefix;
        final String ownKey;
        long created;
        String createdPath;
        /** The version of {@link #ownKey} after this slot's last write; -1 before the first (any version). */
        int ownKeyVersion = -1;

        Slot(LoadClient client, int session, int slot, String ownKey) {
            this.client = client;
            this.namePrefix = "s" + session + "-" + slot + "-";
            this.ownKey = ownKey;
        }
    }

    private void issue(Slot slot) {
        if (!running) {
            if (slot.createdPath != null) {
                removeLeftover(slot);
            }
            return;
        }
        outstanding.incrementAndGet();
        long startNs = System.nanoTime();
        LoadClient client = slot.client;
        switch (spec.workload()) {
            case SET_DATA, LARGE -> client.setData(randomKey(), value, rc -> complete(slot, startNs, rc));
            case GET_DATA -> client.getData(randomKey(), rc -> complete(slot, startNs, rc));
            case EXISTS -> client.exists(randomKey(), rc -> complete(slot, startNs, rc));
            case MIXED -> {
                if (ThreadLocalRandom.current().nextInt(100) < spec.readPercent()) {
                    client.getData(randomKey(), rc -> complete(slot, startNs, rc));
                } else {
                    client.setData(randomKey(), value, rc -> complete(slot, startNs, rc));
                }
            }
            case CREATE_DELETE -> createOrDelete(slot, startNs);
            case CAS_SET_DATA -> client.setData(slot.ownKey, value, slot.ownKeyVersion, (rc, newVersion) -> {
                // a lost race (another run's leftover writer) costs one unconditional write, then CAS again
                slot.ownKeyVersion = rc == 0 ? newVersion : -1;
                complete(slot, startNs, rc);
            });
            default -> throw new IllegalStateException("not a request workload: " + spec.workload());
        }
    }

    private void createOrDelete(Slot slot, long startNs) {
        if (slot.createdPath == null) {
            String path = spec.workloadRoot() + "/" + slot.namePrefix + slot.created++;
            slot.client.create(path, value, false, (rc, actual) -> {
                if (rc == 0) {
                    slot.createdPath = path;
                }
                complete(slot, startNs, rc);
            });
        } else {
            String path = slot.createdPath;
            slot.client.delete(path, rc -> {
                slot.createdPath = null; // deleted, or gone already: either way create a new one
                complete(slot, startNs, rc);
            });
        }
    }

    /** A create+delete slot stopped between its two halves: delete its node so the run leaves nothing. */
    private void removeLeftover(Slot slot) {
        outstanding.incrementAndGet();
        slot.client.delete(slot.createdPath, rc -> {
            slot.createdPath = null;
            outstanding.decrementAndGet();
        });
    }

    private void complete(Slot slot, long startNs, int rc) {
        if (rc == 0) {
            recorder.success(startNs);
        } else {
            recorder.error(rc);
        }
        outstanding.decrementAndGet();
        issue(slot);
    }

    private String randomKey() {
        return keys[ThreadLocalRandom.current().nextInt(keys.length)];
    }

    @Override
    public void stopAndDrain(long timeoutMs) throws InterruptedException {
        running = false;
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (outstanding.get() > 0 && System.nanoTime() < deadlineNs) {
            Thread.sleep(5);
        }
    }
}

package dev.warden.bench.etcd;

import dev.warden.bench.load.LoadRecorder;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The closed-loop request workloads (put, range, compare-and-swap txn): every client keeps
 * {@code inFlight} requests outstanding, each slot issuing its next from the previous one's
 * completion, as the ZooKeeper request driver does.
 */
final class EtcdRequestDriver implements EtcdDriver {
    private static final GetOption SERIALIZABLE = GetOption.newBuilder().withSerializable(true).build();

    private final EtcdWorkload workload;
    private final List<Client> clients;
    private final int inFlight;
    private final ByteSequence[] keys;
    /** Each key's mod revision after the setup's put: where a CAS slot starts. */
    private final long[] setupRevisions;
    private final ByteSequence value;
    private final LoadRecorder recorder;
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile boolean running = true;

    EtcdRequestDriver(EtcdWorkload workload, List<Client> clients, int inFlight, ByteSequence[] keys,
                      long[] setupRevisions, ByteSequence value, LoadRecorder recorder) {
        if (workload == EtcdWorkload.CAS_TXN && (long) clients.size() * inFlight > keys.length) {
            throw new IllegalArgumentException("a CAS slot needs a key of its own: " + keys.length + " keys for "
                    + clients.size() * inFlight + " slots");
        }
        this.workload = workload;
        this.clients = List.copyOf(clients);
        this.inFlight = inFlight;
        this.keys = keys;
        this.setupRevisions = setupRevisions;
        this.value = value;
        this.recorder = recorder;
    }

    /** One in-flight position; a CAS slot owns a key and remembers its mod revision. */
    private static final class Slot {
        final KV kv;
        final ByteSequence ownKey;
        long ownKeyModRevision;

        Slot(KV kv, ByteSequence ownKey, long ownKeyModRevision) {
            this.kv = kv;
            this.ownKey = ownKey;
            this.ownKeyModRevision = ownKeyModRevision;
        }
    }

    @Override
    public void start() {
        for (int client = 0; client < clients.size(); client++) {
            for (int slot = 0; slot < inFlight; slot++) {
                int keyIndex = (client * inFlight + slot) % keys.length;
                issue(new Slot(clients.get(client).getKVClient(), keys[keyIndex], setupRevisions[keyIndex]));
            }
        }
    }

    private void issue(Slot slot) {
        if (!running) {
            return;
        }
        outstanding.incrementAndGet();
        long startNs = System.nanoTime();
        switch (workload) {
            case PUT -> slot.kv.put(randomKey(), value).whenComplete((r, failure) -> complete(slot, startNs, failure));
            case RANGE -> slot.kv.get(randomKey(), SERIALIZABLE)
                    .whenComplete((r, failure) -> complete(slot, startNs, failure));
            case CAS_TXN -> slot.kv.txn()
                    .If(new Cmp(slot.ownKey, Cmp.Op.EQUAL, CmpTarget.modRevision(slot.ownKeyModRevision)))
                    .Then(Op.put(slot.ownKey, value, PutOption.DEFAULT))
                    .commit()
                    .whenComplete((response, failure) -> {
                        if (failure == null && response.isSucceeded()) {
                            // the txn's revision is the key's new mod revision
                            slot.ownKeyModRevision = response.getHeader().getRevision();
                            complete(slot, startNs, null);
                        } else if (failure == null) {
                            recorder.error("CAS_LOST");
                            outstanding.decrementAndGet();
                            relearnRevision(slot);
                        } else {
                            complete(slot, startNs, failure);
                        }
                    });
            default -> throw new IllegalStateException("not a request workload: " + workload);
        }
    }

    /** A CAS that lost (someone else wrote the key): read its mod revision, then go on. */
    private void relearnRevision(Slot slot) {
        slot.kv.get(slot.ownKey).whenComplete((response, failure) -> {
            if (failure == null && !response.getKvs().isEmpty()) {
                slot.ownKeyModRevision = response.getKvs().get(0).getModRevision();
            }
            issue(slot);
        });
    }

    private void complete(Slot slot, long startNs, Throwable failure) {
        if (failure == null) {
            recorder.success(startNs);
        } else {
            recorder.error(EtcdKeys.errorName(failure));
        }
        outstanding.decrementAndGet();
        issue(slot);
    }

    private ByteSequence randomKey() {
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

package dev.warden.bench.etcd;

import dev.warden.bench.load.LoadRecorder;
import dev.warden.bench.load.LoadResult;
import dev.warden.bench.load.LoadRunner;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one {@link EtcdLoadSpec} with jetcd: connects the clients, writes the keys, runs the
 * warm-up and the measured phase exactly as the ZooKeeper load runner does (same recorder, same
 * per-second progress, same figures), then closes the clients.
 */
public final class EtcdLoad {
    private static final long DRAIN_TIMEOUT_MS = 10_000;
    private static final long SETUP_TIMEOUT_MS = 120_000;
    private static final int SETUP_IN_FLIGHT = 64;

    private final PrintWriter progress;

    /** @param progress where the per-second progress lines go */
    public EtcdLoad(PrintWriter progress) {
        this.progress = progress;
    }

    public LoadResult run(EtcdLoadSpec spec) throws IOException, InterruptedException {
        List<Client> clients = new ArrayList<>();
        try {
            for (int i = 0; i < spec.clients(); i++) {
                clients.add(Client.builder().endpoints(spec.endpoints().get(i % spec.endpoints().size()))
                        .maxInboundMessageSize(Math.max(4 << 20, spec.valueSizeBytes() * 2)).build());
            }
            LoadRecorder recorder = new LoadRecorder();
            EtcdDriver driver = driver(spec, clients, recorder);
            driver.start();
            try {
                return new LoadRunner(progress).measure("etcd " + spec.workload().title(), spec.warmupSeconds(),
                        spec.measureSeconds(), recorder);
            } finally {
                driver.stopAndDrain(DRAIN_TIMEOUT_MS);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("etcd at " + spec.endpoints() + ": " + EtcdKeys.errorName(e) + ": "
                    + e.getMessage(), e);
        } finally {
            clients.forEach(Client::close);
        }
    }

    private static EtcdDriver driver(EtcdLoadSpec spec, List<Client> clients, LoadRecorder recorder)
            throws InterruptedException, ExecutionException, TimeoutException {
        return switch (spec.workload()) {
            case LOCK -> new EtcdLockDriver(spec.prefix(), clients, recorder);
            case WATCH_FANOUT -> new EtcdFanoutDriver(spec.prefix(), clients, spec.valueSizeBytes(), recorder);
            case PUT, RANGE, CAS_TXN -> {
                ByteSequence[] keys = new ByteSequence[spec.keyCount()];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = EtcdKeys.key(spec.prefix(), i);
                }
                ByteSequence value = EtcdKeys.value(spec.valueSizeBytes());
                long[] revisions = writeKeys(clients.get(0).getKVClient(), keys, value);
                yield new EtcdRequestDriver(spec.workload(), clients, spec.inFlight(), keys, revisions, value,
                        recorder);
            }
        };
    }

    /** Puts every key, a few dozen at a time; returns each key's mod revision after its put. */
    private static long[] writeKeys(KV kv, ByteSequence[] keys, ByteSequence value)
            throws InterruptedException, ExecutionException, TimeoutException {
        long[] revisions = new long[keys.length];
        Semaphore window = new Semaphore(SETUP_IN_FLIGHT);
        List<CompletableFuture<?>> puts = new ArrayList<>();
        for (int i = 0; i < keys.length; i++) {
            int index = i;
            window.acquire();
            puts.add(kv.put(keys[i], value).whenComplete((response, failure) -> {
                window.release();
                if (failure == null) {
                    revisions[index] = response.getHeader().getRevision();
                }
            }));
        }
        CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).get(SETUP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        return revisions;
    }
}

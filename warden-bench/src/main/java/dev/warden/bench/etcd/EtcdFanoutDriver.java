package dev.warden.bench.etcd;

import dev.warden.bench.load.LoadRecorder;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watch fan-out: every watcher client watches one key; the writer puts it once; a round's latency
 * runs from sending the put until the last watcher has the event, then the next round's put goes.
 * etcd's watches stay registered (ZooKeeper's fire once and are set again each round), so a round
 * is one put and its events. Each value carries its round number, so an event of an earlier round
 * is never counted for a later one; the first round is put again until every watch is in place.
 */
final class EtcdFanoutDriver implements EtcdDriver {
    private static final long REPUT_FIRST_ROUND_MS = 500;

    private final ByteSequence key;
    private final Client writer;
    private final List<Client> watcherClients;
    private final List<Watch.Watcher> watchers = new ArrayList<>();
    private final LoadRecorder recorder;
    private final int valueSizeBytes;
    private final AtomicLong round = new AtomicLong();
    private final AtomicInteger unseen = new AtomicInteger();
    private final ScheduledExecutorService firstRoundRepeater = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "etcd-fanout-first-round");
        thread.setDaemon(true);
        return thread;
    });
    private volatile long firedAtNs;
    private volatile boolean running = true;
    private volatile boolean idle;

    EtcdFanoutDriver(String prefix, List<Client> clients, int valueSizeBytes, LoadRecorder recorder) {
        this.key = EtcdKeys.bytes(prefix + "/watched");
        this.writer = clients.get(0);
        this.watcherClients = List.copyOf(clients.subList(1, clients.size()));
        this.valueSizeBytes = Math.max(Long.BYTES, valueSizeBytes);
        this.recorder = recorder;
    }

    @Override
    public void start() {
        for (Client client : watcherClients) {
            AtomicLong lastSeenRound = new AtomicLong();
            watchers.add(client.getWatchClient().watch(key, Watch.listener(
                    response -> seen(response, lastSeenRound),
                    failure -> recorder.error("WATCH_" + EtcdKeys.errorName(failure)))));
        }
        nextRound();
        // a watch is set up asynchronously: until all are, the first round's put may go unseen by some
        firstRoundRepeater.scheduleWithFixedDelay(() -> {
            if (round.get() == 1 && running) {
                put(1);
            }
        }, REPUT_FIRST_ROUND_MS, REPUT_FIRST_ROUND_MS, TimeUnit.MILLISECONDS);
    }

    private void nextRound() {
        if (!running) {
            idle = true;
            return;
        }
        unseen.set(watcherClients.size());
        long thisRound = round.incrementAndGet();
        firedAtNs = System.nanoTime();
        put(thisRound);
    }

    private void put(long roundNumber) {
        ByteBuffer value = ByteBuffer.allocate(valueSizeBytes);
        value.putLong(0, roundNumber);
        writer.getKVClient().put(key, ByteSequence.from(value.array())).whenComplete((r, failure) -> {
            if (failure != null) {
                recorder.error(EtcdKeys.errorName(failure));
                if (running && round.get() == roundNumber) {
                    put(roundNumber); // no watcher saw a failed put: try the round again
                } else {
                    idle = true;
                }
            }
        });
    }

    private void seen(WatchResponse response, AtomicLong lastSeenRound) {
        for (WatchEvent event : response.getEvents()) {
            byte[] value = event.getKeyValue().getValue().getBytes();
            if (value.length < Long.BYTES) {
                continue;
            }
            long eventRound = ByteBuffer.wrap(value).getLong(0);
            long current = round.get();
            // one count per watcher per round: a first round put twice arrives twice
            if (eventRound == current && lastSeenRound.getAndSet(eventRound) != eventRound
                    && unseen.decrementAndGet() == 0) {
                recorder.success(firedAtNs);
                nextRound();
            }
        }
    }

    @Override
    public void stopAndDrain(long timeoutMs) throws InterruptedException {
        running = false;
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!idle && System.nanoTime() < deadlineNs) {
            Thread.sleep(5);
        }
        firstRoundRepeater.shutdownNow();
        watchers.forEach(Watch.Watcher::close);
    }
}

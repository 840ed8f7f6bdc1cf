package dev.warden.bench.etcd;

import dev.warden.bench.load.LoadRecorder;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * etcd's lock service as its clients use it: each contender holds a lease (kept alive), asks for
 * the lock on it (the server answers once it is the owner), releases it and asks again at once.
 * The figure is acquisitions per second under full contention, as for the ZooKeeper lock recipe.
 */
final class EtcdLockDriver implements EtcdDriver {
    /** Long enough that keep-alives on a busy machine never let a lease lapse mid-run. */
    private static final long LEASE_TTL_SECONDS = 30;
    private static final long SETUP_TIMEOUT_MS = 30_000;

    private final ByteSequence lockName;
    private final LoadRecorder recorder;
    private final List<Contender> contenders = new ArrayList<>();
    private final AtomicInteger active = new AtomicInteger();
    private volatile boolean running = true;

    EtcdLockDriver(String prefix, List<Client> clients, LoadRecorder recorder)
            throws InterruptedException, ExecutionException, TimeoutException {
        this.lockName = EtcdKeys.bytes(prefix + "/lock");
        this.recorder = recorder;
        for (Client client : clients) {
            long leaseId = client.getLeaseClient().grant(LEASE_TTL_SECONDS)
                    .get(SETUP_TIMEOUT_MS, TimeUnit.MILLISECONDS).getID();
            contenders.add(new Contender(client, leaseId));
        }
    }

    private final class Contender {
        private final Client client;
        private final long leaseId;
        private final CloseableClient keepAlive;
        private long attemptStartNs;

        Contender(Client client, long leaseId) {
            this.client = client;
            this.leaseId = leaseId;
            this.keepAlive = client.getLeaseClient().keepAlive(leaseId, new StreamObserver<>() {
                @Override
                public void onNext(LeaseKeepAliveResponse response) {
                }

                @Override
                public void onError(Throwable failure) {
                    recorder.error("LEASE_" + EtcdKeys.errorName(failure));
                }

                @Override
                public void onCompleted() {
                }
            });
        }

        void attempt() {
            if (!running) {
                active.decrementAndGet();
                return;
            }
            attemptStartNs = System.nanoTime();
            client.getLockClient().lock(lockName, leaseId).whenComplete((held, failure) -> {
                if (failure != null) {
                    recorder.error(EtcdKeys.errorName(failure));
                    attempt();
                    return;
                }
                recorder.success(attemptStartNs);
                client.getLockClient().unlock(held.getKey()).whenComplete((released, unlockFailure) -> {
                    if (unlockFailure != null) {
                        recorder.error(EtcdKeys.errorName(unlockFailure));
                    }
                    attempt();
                });
            });
        }

        void release() {
            keepAlive.close();
            client.getLeaseClient().revoke(leaseId); // the lease's lock key goes with it
        }
    }

    @Override
    public void start() {
        active.set(contenders.size());
        contenders.forEach(Contender::attempt);
    }

    @Override
    public void stopAndDrain(long timeoutMs) throws InterruptedException {
        running = false;
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (active.get() > 0 && System.nanoTime() < deadlineNs) {
            Thread.sleep(5);
        }
        contenders.forEach(Contender::release);
    }
}

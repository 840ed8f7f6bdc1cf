package dev.warden.server;

import dev.warden.protocol.DeleteContainerRequest;
import dev.warden.protocol.OpCode;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.pipeline.RequestPipeline;
import dev.warden.server.quorum.Member;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.Request;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.tree.DataNode;
import dev.warden.state.tree.DataTree;
import dev.warden.state.tree.NodeOwner;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import java.io.IOException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A server's timed chores: expiring sessions (standalone), reaping containers and TTL nodes, autopurge. */
final class Housekeeping {
    /** The server's logger: operators' log settings name WardenServer for these lines. */
    private static final Logger log = LoggerFactory.getLogger(WardenServer.class);

    private final ServerConfig config;
    private final Clock clock;
    private final StateMachine stateMachine;
    private final RequestPipeline pipeline;
    /** Null for a standalone server. */
    private final Member member;
    private final SnapshotStore snapshots;
    private final TxnLog txnLog;

    Housekeeping(ServerConfig config, Clock clock, StateMachine stateMachine, RequestPipeline pipeline, Member member,
                 SnapshotStore snapshots, TxnLog txnLog) {
        this.config = config;
        this.clock = clock;
        this.stateMachine = stateMachine;
        this.pipeline = pipeline;
        this.member = member;
        this.snapshots = snapshots;
        this.txnLog = txnLog;
    }

    /** Schedules the chores on {@code timers}, the server's timer thread. */
    void schedule(ScheduledExecutorService timers) {
        long tickMs = config.tickTimeMs();
        if (member == null) {
            // A member's sessions are expired by the leader (Member schedules that).
            timers.scheduleAtFixedRate(this::expireSessions, tickMs, tickMs, TimeUnit.MILLISECONDS);
        }
        long reapMs = config.containerCheckIntervalMs();
        timers.scheduleWithFixedDelay(this::reapContainers, reapMs, reapMs, TimeUnit.MILLISECONDS);
        int purgeHours = config.autopurgePurgeIntervalHours();
        if (purgeHours > 0) {
            timers.scheduleWithFixedDelay(this::purge, purgeHours, purgeHours, TimeUnit.HOURS);
        }
    }

    private void expireSessions() {
        for (long sessionId : stateMachine.sessions().takeExpired()) {
            log.info("expiring session 0x{}", Long.toHexString(sessionId));
            pipeline.submit(new Request(null, sessionId, 0, OpCode.CLOSE_SESSION, null));
        }
    }

    /** Containers that had children and lost them all, and TTL nodes idle past their TTL. */
    private void reapContainers() {
        if (member != null && !member.isLeading()) {
            return;
        }
        DataTree tree = stateMachine.tree();
        long now = clock.wallTimeMs();
        for (String path : tree.containerAndTtlPaths()) {
            boolean due;
            tree.readLock().lock();
            try {
                DataNode node = tree.node(path);
                if (node == null || node.numChildren() > 0) {
                    continue;
                }
                due = NodeOwner.isContainer(node.owner())
                        ? node.cversionCounter() > 0
                        : now - node.mtime() > NodeOwner.ttlMs(node.owner());
            } finally {
                tree.readLock().unlock();
            }
            if (due) {
                Request reap = new Request(null, 0, 0, OpCode.DELETE_CONTAINER, new DeleteContainerRequest(path));
                if (member == null) {
                    pipeline.submit(reap);
                } else {
                    member.submitHousekeeping(reap);
                }
            }
        }
    }

    /** Keeps the newest autopurge.snapRetainCount snapshots and the log needed to replay them.
     *  Runs every autopurge.purgeInterval hours; the server runs it now for tests. */
    void purge() {
        try {
            var removed = snapshots.purge(config.autopurgeSnapRetainCount());
            var oldest = snapshots.oldestZxid();
            if (oldest.isPresent()) {
                if (member == null) {
                    txnLog.purgeUpTo(oldest.getAsLong());
                } else {
                    // The core reads the log: the purge must happen on its thread, through its view.
                    member.purgeLogUpTo(oldest.getAsLong());
                }
            }
            log.info("autopurge removed {} snapshots", removed.size());
        } catch (IOException | RuntimeException e) {
            log.warn("autopurge failed: {}", e.toString());
        }
    }
}

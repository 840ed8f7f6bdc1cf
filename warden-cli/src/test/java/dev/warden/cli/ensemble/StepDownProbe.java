package dev.warden.cli.ensemble;

import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberMode;
import dev.warden.cli.cluster.MemberProcess;
import java.time.Duration;
import java.util.List;

/**
 * Times how long a leader goes on saying {@code Mode: leader} to {@code srvr} once it can no
 * longer hear a quorum, by polling it as fast as it answers. Both faults freeze members with
 * SIGSTOP, so Warden and Apache ZooKeeper see exactly the same silence.
 */
final class StepDownProbe {
    /** Pause between two srvr polls; each poll itself takes a few ms on loopback. */
    private static final long POLL_INTERVAL_MS = 10;

    /**
     * How a resumed former leader answered srvr.
     *
     * @param lastLeaderAnswerMs after SIGCONT, when it last said leader; -1 if it never did
     * @param followerAfterMs    after SIGCONT, when it first said follower (serving under the new leader)
     */
    record Resumed(int newLeader, long pausedMs, long lastLeaderAnswerMs, long followerAfterMs) { }

    private StepDownProbe() {
    }

    /**
     * SIGSTOP for every member but the serving leader {@code leader}, then polls the leader until
     * it answers anything but leader (a srvr that times out is no answer); SIGCONT for the
     * others. Returns the milliseconds from the last SIGSTOP to the first answer that is not leader.
     */
    static long leaderServesAfterFollowersPausedMs(LocalCluster cluster, int leader, Duration limit)
            throws InterruptedException {
        List<Integer> others = cluster.ids().stream().filter(id -> id != leader).toList();
        try {
            for (int id : others) {
                cluster.pause(id);
            }
            long pausedNs = System.nanoTime();
            long deadlineNs = pausedNs + limit.toNanos();
            while (true) {
                MemberMode mode = cluster.mode(leader);
                long nowNs = System.nanoTime();
                if (mode != MemberMode.LEADER && mode != MemberMode.UNREACHABLE) {
                    return (nowNs - pausedNs) / 1_000_000;
                }
                if (nowNs > deadlineNs) {
                    throw new AssertionError("member " + leader + " still says it leads " + limit
                            + " after its followers froze; " + cluster.describe());
                }
                Thread.sleep(POLL_INTERVAL_MS);
            }
        } finally {
            for (int id : others) {
                if (cluster.member(id).state() == MemberProcess.State.PAUSED) {
                    cluster.resume(id);
                }
            }
        }
    }

    /**
     * SIGSTOP for the serving leader {@code leader} until the others serve under a new leader,
     * then SIGCONT, and polls it until it serves as a follower.
     */
    static Resumed leaderResumedAfterTheOthersMovedOn(LocalCluster cluster, int leader, Duration timeout)
            throws InterruptedException {
        long pausedNs = System.nanoTime();
        cluster.pause(leader);
        int newLeader = cluster.awaitLeaderOtherThan(leader, timeout);
        long resumedNs = System.nanoTime();
        cluster.resume(leader);
        long lastLeaderNs = -1;
        long deadlineNs = resumedNs + timeout.toNanos();
        while (true) {
            MemberMode mode = cluster.mode(leader);
            long nowNs = System.nanoTime();
            if (mode == MemberMode.LEADER) {
                lastLeaderNs = nowNs;
            } else if (mode == MemberMode.FOLLOWER) {
                return new Resumed(newLeader, (resumedNs - pausedNs) / 1_000_000,
                        lastLeaderNs < 0 ? -1 : (lastLeaderNs - resumedNs) / 1_000_000,
                        (nowNs - resumedNs) / 1_000_000);
            }
            if (nowNs > deadlineNs) {
                throw new AssertionError("member " + leader + " did not follow " + newLeader + " within " + timeout
                        + " of its SIGCONT (mode " + mode + "); " + cluster.describe());
            }
            Thread.sleep(POLL_INTERVAL_MS);
        }
    }
}

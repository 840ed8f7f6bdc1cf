package dev.warden.sim;

/** Damage to the files of a member that is down: a snapshot that no longer verifies, a log segment gone. */
final class AtRestDamage {
    private final SimTrace events;
    private final FaultTally tally;

    AtRestDamage(SimTrace events, FaultTally tally) {
        this.events = events;
        this.tally = tally;
    }

    void damageSnapshot(SimServer member, long zxid) {
        requireDown(member, "damage a snapshot");
        events.trace(7, member.id(), zxid);
        events.log("damage snapshot " + Long.toHexString(zxid) + " of " + member.id());
        member.disk.damageSnapshot(zxid);
        tally.snapshotDamaged(member.id());
    }

    /** Segment {@code index} (0 the oldest; never the newest) is gone. */
    void loseLogSegment(SimServer member, int index) {
        requireDown(member, "lose a log segment");
        events.trace(8, member.id(), index);
        events.log("lose log segment " + member.disk.segments().get(index).name() + " (" + index + " of "
                + member.disk.segments().size() + ") of " + member.id());
        member.disk.loseSegment(index);
        tally.segmentLost(member.id());
    }

    private static void requireDown(SimServer member, String what) {
        if (member.isUp()) {
            throw new IllegalStateException("cannot " + what + " of member " + member.id() + " while it runs: crash it first");
        }
    }
}

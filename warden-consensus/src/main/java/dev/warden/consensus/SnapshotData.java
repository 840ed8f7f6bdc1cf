package dev.warden.consensus;

/**
 * A state machine snapshot for SNAP synchronization. It may be fuzzy: it holds at least every
 * entry up to {@code zxid} and possibly some later ones, which is safe because applying an
 * entry twice changes nothing. The receiver replays the entries after {@code zxid}.
 */
public record SnapshotData(long zxid, byte[] bytes) {
}

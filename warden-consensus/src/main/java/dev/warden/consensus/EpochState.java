package dev.warden.consensus;

/**
 * The two epochs a member must keep on disk (Zab's f.p and f.a):
 * {@code acceptedEpoch} is the newest epoch this member promised to follow (NEWEPOCH),
 * {@code currentEpoch} the newest epoch whose NEWLEADER it acknowledged (its history's epoch).
 */
public record EpochState(long acceptedEpoch, long currentEpoch) {
    public static final EpochState INITIAL = new EpochState(0, 0);

    public EpochState {
        if (currentEpoch > acceptedEpoch) {
            throw new IllegalArgumentException("currentEpoch " + currentEpoch + " > acceptedEpoch " + acceptedEpoch);
        }
    }
}

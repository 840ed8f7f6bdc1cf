package dev.warden.protocol;

/** Create flags as sent in CreateRequest.flags. */
public enum CreateMode {
    PERSISTENT(0, false, false),
    EPHEMERAL(1, true, false),
    PERSISTENT_SEQUENTIAL(2, false, true),
    EPHEMERAL_SEQUENTIAL(3, true, true),
    CONTAINER(4, false, false),
    PERSISTENT_WITH_TTL(5, false, false),
    PERSISTENT_SEQUENTIAL_WITH_TTL(6, false, true);

    private final int flags;
    private final boolean ephemeral;
    private final boolean sequential;

    CreateMode(int flags, boolean ephemeral, boolean sequential) {
        this.flags = flags;
        this.ephemeral = ephemeral;
        this.sequential = sequential;
    }

    public int flags() {
        return flags;
    }

    public boolean isEphemeral() {
        return ephemeral;
    }

    public boolean isSequential() {
        return sequential;
    }

    public boolean isTtl() {
        return this == PERSISTENT_WITH_TTL || this == PERSISTENT_SEQUENTIAL_WITH_TTL;
    }

    public boolean isContainer() {
        return this == CONTAINER;
    }

    /** The mode for a flags value, or null when the value is not a mode. */
    public static CreateMode fromFlags(int flags) {
        return flags >= 0 && flags < 7 ? values()[flags] : null;
    }
}

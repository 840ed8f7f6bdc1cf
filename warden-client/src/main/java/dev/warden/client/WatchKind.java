package dev.warden.client;

import dev.warden.protocol.WatcherType;

/** Which watches {@link WardenClient#removeWatches} removes (the wire's WatcherType). */
public enum WatchKind {
    CHILDREN(WatcherType.CHILDREN),
    /** Data watches, including the ones set by exists. */
    DATA(WatcherType.DATA),
    ANY(WatcherType.ANY),
    PERSISTENT(WatcherType.PERSISTENT),
    PERSISTENT_RECURSIVE(WatcherType.PERSISTENT_RECURSIVE);

    private final int wireType;

    WatchKind(int wireType) {
        this.wireType = wireType;
    }

    public int wireType() {
        return wireType;
    }
}

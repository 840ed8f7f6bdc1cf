package dev.warden.server.quorum;

import dev.warden.server.pipeline.PipelineListener;

/**
 * What the {@link MemberApplier} tells the rest of the member, on the apply thread: what the
 * standalone pipeline tells its server, and two things only a member needs.
 */
interface ApplyHooks extends PipelineListener {
    /** A transaction is in the tree: the leader's prep may forget what it kept pending for it. */
    void applied(long zxid);

    /** The apply thread died of {@code cause} (an Error: out of memory, say); nothing more will be applied. */
    void applyFailed(Throwable cause);
}

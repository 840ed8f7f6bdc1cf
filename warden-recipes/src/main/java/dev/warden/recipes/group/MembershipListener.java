package dev.warden.recipes.group;

/** Told what happens to a {@link GroupMember}'s place in the group; all methods optional. */
public interface MembershipListener {
    /** The session that held the member node ended (its node is gone or going). */
    default void lost() {
    }

    /** After a loss, the member joined again on a new session, as {@code memberPath}. */
    default void rejoined(String memberPath) {
    }

    /** After a loss, joining again failed; the member stays out of the group. */
    default void rejoinFailed(Throwable failure) {
    }
}

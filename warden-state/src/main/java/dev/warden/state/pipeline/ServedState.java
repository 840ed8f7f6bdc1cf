package dev.warden.state.pipeline;

import dev.warden.state.tree.DigestHistory;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The replicated state as the client port sees it: the figures its answers and four-letter
 * words show, and reads answered in place. The port takes no lock of the tree and holds no
 * reference to it; the state decides how each is read consistently.
 */
public interface ServedState {
    /** The zxid of the last transaction applied; every reply's header carries it. */
    long lastAppliedZxid();

    int nodeCount();

    int ephemeralCount();

    long approximateDataBytes();

    /** The tree's rolling digest. */
    long digest();

    /** The digests after the last transactions, newest first. */
    List<DigestHistory.ZxidDigest> recentDigests();

    /** Session id → its ephemeral paths (a copy). */
    Map<Long, List<String>> ephemeralsBySession();

    /**
     * Answers {@code request}, a read, in place: {@code reads} runs it while no transaction is
     * applied, and {@code answer} gets the reply and the zxid it reflects before the next one
     * can be. A watch the read sets fires as a later transaction is applied, so its event
     * cannot reach the client ahead of the reply queued here.
     *
     * @param sessionActive asked at the same moment: whether the request's session is live; if
     *                      not, the reply is SESSION_EXPIRED
     */
    void answerRead(Request request, BooleanSupplier sessionActive, ReadProcessor reads, ReadAnswer answer);

    /** Takes the reply of a read answered in place. */
    @FunctionalInterface
    interface ReadAnswer {
        void send(Reply reply, long lastAppliedZxid);
    }
}

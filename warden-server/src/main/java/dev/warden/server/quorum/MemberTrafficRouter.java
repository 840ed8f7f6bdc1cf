package dev.warden.server.quorum;

import dev.warden.consensus.Received;
import dev.warden.protocol.ProtocolException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes member traffic to where it is handled: forwarded requests and session moves to the
 * leader's prep, the rest to the member. Traffic from other members arrives encoded, through the
 * core; a leader's own arrives as it was made (see {@link LoopEvent.ToLeader}).
 */
final class MemberTrafficRouter {
    /** The loop's logger: these lines are the loop's. */
    private static final Logger log = LoggerFactory.getLogger(MemberLoop.class);

    private final long myId;
    private final LeaderPrep prep;
    private final DriverEffects effects;

    MemberTrafficRouter(long myId, LeaderPrep prep, DriverEffects effects) {
        this.myId = myId;
        this.prep = prep;
        this.effects = effects;
    }

    void deliver(List<Received> received) {
        for (Received message : received) {
            AppMessage decoded;
            try {
                decoded = AppMessage.decode(message.payload());
            } catch (ProtocolException e) {
                log.warn("member {}: undecodable message from member {}: {}", myId, message.from(), e.getMessage());
                continue;
            }
            deliver(message.from(), decoded);
        }
    }

    /** One message, from another member (decoded) or from this leader itself (as it was made). */
    void deliver(long from, AppMessage message) {
        if (message instanceof AppMessage.Forward forward) {
            prep.forwarded(forward);
        } else if (message instanceof AppMessage.UnreadableForward forward) {
            prep.unreadable(forward);
        } else if (message instanceof AppMessage.Attach attach) {
            prep.attached(attach);
        } else {
            effects.memberMessage(from, message);
        }
    }
}

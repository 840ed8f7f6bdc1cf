package dev.warden.server.quorum;

import dev.warden.consensus.Outbound;
import dev.warden.server.peer.PeerSender;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends the core's messages to the peers, saying and counting each sync of a member it starts. */
final class LoopPeerOutput {
    /** The loop's logger: these lines are the loop's. */
    private static final Logger log = LoggerFactory.getLogger(MemberLoop.class);

    private final long myId;
    private final PeerSender sender;
    private final MemberLoopFigures figures;

    LoopPeerOutput(long myId, PeerSender sender, MemberLoopFigures figures) {
        this.myId = myId;
        this.sender = sender;
        this.figures = figures;
    }

    void send(List<Outbound> messages) {
        if (!messages.isEmpty()) {
            for (Outbound message : messages) {
                // the start of bringing a member up to date: rare, and what an operator asks about
                MemberLogLines.syncSent(myId, message).ifPresent(log::info);
                figures.sent(message.message());
            }
            sender.sendAll(messages);
        }
    }
}

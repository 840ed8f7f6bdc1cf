package dev.warden.sim;

import dev.warden.consensus.ZabMessage;
import dev.warden.consensus.Zxid;

/** Short readable forms of the messages a verbose run prints (zxids in hex, no snapshot bytes). */
final class MessageText {
    private MessageText() {
    }

    /** True for the messages worth a line in a verbose run: discovery and synchronization. */
    static boolean worthLogging(ZabMessage m) {
        return m instanceof ZabMessage.Diff || m instanceof ZabMessage.Trunc || m instanceof ZabMessage.Snap
                || m instanceof ZabMessage.NewLeader || m instanceof ZabMessage.LeaderInfo
                || m instanceof ZabMessage.FollowerInfo || m instanceof ZabMessage.AckEpoch
                || m instanceof ZabMessage.UpToDate;
    }

    static String describe(ZabMessage m) {
        if (m instanceof ZabMessage.Snap snap) {
            return "Snap[" + Zxid.hex(snap.zxid()) + "]";
        }
        if (m instanceof ZabMessage.Trunc t) {
            return "Trunc[" + Zxid.hex(t.toZxid()) + "]";
        }
        if (m instanceof ZabMessage.Diff d) {
            return "Diff[" + Zxid.hex(d.leaderLastZxid()) + "]";
        }
        if (m instanceof ZabMessage.FollowerInfo f) {
            return "FollowerInfo[accepted " + f.acceptedEpoch() + ", last " + Zxid.hex(f.lastZxid()) + "]";
        }
        if (m instanceof ZabMessage.AckEpoch a) {
            return "AckEpoch[current " + a.currentEpoch() + ", last " + Zxid.hex(a.lastZxid()) + "]";
        }
        if (m instanceof ZabMessage.NewLeader n) {
            return "NewLeader[" + n.epoch() + ", " + Zxid.hex(n.lastZxid()) + "]";
        }
        if (m instanceof ZabMessage.UpToDate u) {
            return "UpToDate[" + Zxid.hex(u.committedZxid()) + "]";
        }
        return m.toString();
    }
}

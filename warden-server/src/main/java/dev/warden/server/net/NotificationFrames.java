package dev.warden.server.net;

import dev.warden.protocol.EventType;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.WatcherEvent;

/**
 * The bytes of a watch notification frame (length, reply header, event), encoded once per
 * event and thread rather than once per watcher.
 *
 * <p>One change notifies every watcher of the path with the same frame, and the watch manager
 * calls the watchers one after the other on the thread that applies the change. So each thread
 * keeps the last frame it encoded, and the watchers after the first get that array again: a
 * setData watched by 10,000 sessions encodes one frame instead of 10,000, under the tree's write
 * lock. The array is shared by every connection it is sent to, so nobody may write into it.
 */
final class NotificationFrames {
    private static final ThreadLocal<NotificationFrames> LAST = ThreadLocal.withInitial(NotificationFrames::new);

    private int eventType;
    private long zxid;
    private String path;
    private byte[] frame;

    private NotificationFrames() {
    }

    /** The frame for this event, including its 4-byte length prefix; the same array for the same event. */
    static byte[] frame(int eventType, String path, long zxid) {
        return LAST.get().encodeOrReuse(eventType, path, zxid);
    }

    private byte[] encodeOrReuse(int type, String eventPath, long eventZxid) {
        // the path is compared by content too: each trigger passes one string to all its watchers,
        // so the identity check answers almost always, and equals keeps a rare copy correct
        if (frame != null && type == eventType && eventZxid == zxid
                && (eventPath == path || eventPath.equals(path))) {
            return frame;
        }
        WatcherEvent event = new WatcherEvent(type, EventType.STATE_SYNC_CONNECTED, eventPath);
        JuteWriter out = new JuteWriter(4 + ReplyHeader.BYTES + event.sizeHintBytes());
        out.writeInt(0);
        new ReplyHeader(OpCode.XID_NOTIFICATION, eventZxid, 0).writeTo(out);
        event.writeTo(out);
        out.setInt(0, out.size() - 4);
        eventType = type;
        zxid = eventZxid;
        path = eventPath;
        frame = out.toExactArray();
        return frame;
    }
}

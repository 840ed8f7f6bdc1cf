package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.warden.protocol.EventType;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.WatcherEvent;
import org.junit.jupiter.api.Test;

class NotificationFramesTest {

    @Test
    void aFrameIsTheLengthTheNotificationHeaderAndTheEvent() {
        byte[] frame = NotificationFrames.frame(EventType.NODE_DATA_CHANGED, "/app/config", 0x1_0000_0007L);

        JuteReader in = new JuteReader(frame);
        assertEquals(frame.length - 4, in.readInt());
        assertEquals(new ReplyHeader(OpCode.XID_NOTIFICATION, 0x1_0000_0007L, 0), ReplyHeader.read(in));
        assertEquals(new WatcherEvent(EventType.NODE_DATA_CHANGED, EventType.STATE_SYNC_CONNECTED, "/app/config"),
                WatcherEvent.read(in));
        assertEquals(0, in.remaining());
    }

    @Test
    void everyWatcherOfOneEventGetsTheSameArray() {
        String path = "/fanout/watched";
        byte[] first = NotificationFrames.frame(EventType.NODE_DATA_CHANGED, path, 42);

        assertSame(first, NotificationFrames.frame(EventType.NODE_DATA_CHANGED, path, 42));
        // an equal path in another string is the same event
        assertSame(first, NotificationFrames.frame(EventType.NODE_DATA_CHANGED, new String(path), 42));
    }

    @Test
    void anotherEventIsEncodedAfresh() {
        byte[] changed = NotificationFrames.frame(EventType.NODE_DATA_CHANGED, "/a", 42);
        byte[] deleted = NotificationFrames.frame(EventType.NODE_DELETED, "/a", 42);
        byte[] later = NotificationFrames.frame(EventType.NODE_DELETED, "/a", 43);
        byte[] elsewhere = NotificationFrames.frame(EventType.NODE_DELETED, "/b", 43);

        assertNotSame(changed, deleted);
        assertEquals(EventType.NODE_DELETED, eventOf(deleted).type());
        assertEquals(43, headerOf(later).zxid());
        assertEquals("/b", eventOf(elsewhere).path());
        // and going back to an earlier event encodes it again, identically
        assertArrayEquals(changed, NotificationFrames.frame(EventType.NODE_DATA_CHANGED, "/a", 42));
    }

    private static ReplyHeader headerOf(byte[] frame) {
        JuteReader in = new JuteReader(frame);
        in.readInt();
        return ReplyHeader.read(in);
    }

    private static WatcherEvent eventOf(byte[] frame) {
        JuteReader in = new JuteReader(frame);
        in.readInt();
        ReplyHeader.read(in);
        return WatcherEvent.read(in);
    }
}

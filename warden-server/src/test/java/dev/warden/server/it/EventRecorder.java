package dev.warden.server.it;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/** A watcher that queues the node events it receives (connection-state events are dropped). */
final class EventRecorder implements Watcher {
    static final long QUIET_MS = 300;

    final BlockingQueue<WatchedEvent> events = new LinkedBlockingQueue<>();

    @Override
    public void process(WatchedEvent event) {
        if (event.getType() != Event.EventType.None) {
            events.add(event);
        }
    }

    /** Takes the next event and checks its type and path. */
    WatchedEvent expect(Event.EventType type, String path) throws InterruptedException {
        WatchedEvent event = Await.next(type + " " + path, events);
        if (event.getType() != type || !path.equals(event.getPath())) {
            throw new AssertionError("expected " + type + " " + path + " but got " + event.getType() + " "
                + event.getPath());
        }
        return event;
    }

    /** Checks that no further event arrives for a short while. */
    void expectNothing() throws InterruptedException {
        Await.nothingWithin("event", events, QUIET_MS);
    }
}

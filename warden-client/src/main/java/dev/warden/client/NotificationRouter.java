package dev.warden.client;

import dev.warden.protocol.WatcherEvent;

/**
 * Hands a watch notification from the server to the watchers it triggers, through the
 * completion executor so they run in wire order. Called on the I/O event loop.
 */
final class NotificationRouter {
    private final WatchTables watches;
    private final Paths paths;
    private final SerialExecutor completions;

    NotificationRouter(WatchTables watches, Paths paths, SerialExecutor completions) {
        this.watches = watches;
        this.paths = paths;
        this.completions = completions;
    }

    void route(WatcherEvent event, long zxid) {
        WatchEvent.Kind kind = WatchEvent.Kind.ofWire(event.type());
        if (kind == null) {
            return;
        }
        if (WatchTables.CONFIG_NODE.equals(event.path())) {
            // getConfig watches live outside the chroot; they see the server path.
            for (WatchTables.Delivery delivery : watches.triggerConfig(new WatchEvent(kind, event.path(), zxid))) {
                completions.execute(() -> delivery.watcher().process(delivery.event()));
            }
        }
        String path = paths.toClient(event.path());
        if (path == null) {
            return;
        }
        for (WatchTables.Delivery delivery : watches.trigger(new WatchEvent(kind, path, zxid))) {
            completions.execute(() -> delivery.watcher().process(delivery.event()));
        }
    }
}

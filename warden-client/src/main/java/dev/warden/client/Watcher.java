package dev.warden.client;

/**
 * Receives watch events. Called on the client's completion executor, in the order the server
 * sent the events and before the completion of any request whose reply followed the event.
 */
@FunctionalInterface
public interface Watcher {
    void process(WatchEvent event);
}

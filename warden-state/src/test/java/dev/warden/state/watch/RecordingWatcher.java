package dev.warden.state.watch;

import dev.warden.protocol.Acl;
import java.util.ArrayList;
import java.util.List;

/** Test watcher that records every notification as "type path zxid". */
final class RecordingWatcher implements WatchRecipient {
    final String name;
    final List<String> events = new ArrayList<>();
    final List<List<Acl>> acls = new ArrayList<>();

    RecordingWatcher(String name) {
        this.name = name;
    }

    @Override
    public synchronized void process(int eventType, String path, long zxid, List<Acl> aclForReadCheck) {
        events.add(eventType + " " + path + " " + zxid);
        acls.add(aclForReadCheck);
    }

    synchronized List<String> takeEvents() {
        List<String> copy = List.copyOf(events);
        events.clear();
        acls.clear();
        return copy;
    }

    /** Deliberately equal to every other RecordingWatcher: the manager must use identity. */
    @Override
    public boolean equals(Object other) {
        return other instanceof RecordingWatcher;
    }

    @Override
    public int hashCode() {
        return 1;
    }

    @Override
    public String toString() {
        return name;
    }
}

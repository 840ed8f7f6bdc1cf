package dev.warden.state.watch;

import dev.warden.protocol.Acl;
import java.util.List;

/**
 * Receives watch notifications; in the server, one client connection. The watch manager keys
 * watchers by object identity, so {@code equals}/{@code hashCode} overrides are ignored.
 *
 * <p>{@link WatchManager#trigger} calls this outside its lock, so an implementation may call
 * back into the manager (for instance to drop itself when its connection is gone). It should
 * not block: it runs on the thread that applies transactions.
 */
public interface WatchRecipient {
    /**
     * One notification.
     *
     * @param eventType       an {@link dev.warden.protocol.EventType} value
     * @param path            the absolute server-side path the event is about
     * @param zxid            the zxid of the transaction that fired the watch
     * @param aclForReadCheck the ACL the receiver must have READ on for the event to be delivered
     *                        (ZooKeeper 3.9.2+ filtering); null means deliver unconditionally
     */
    void process(int eventType, String path, long zxid, List<Acl> aclForReadCheck);
}

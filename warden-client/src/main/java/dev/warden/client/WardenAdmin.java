package dev.warden.client;

import dev.warden.protocol.GetDataResponse;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.ReconfigRequest;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reconfiguring the ensemble, as ZooKeeper's {@code ZooKeeperAdmin}: add and remove members
 * (incremental) or replace the whole member list (bulk). Server specs are ZooKeeper's dynamic
 * configuration lines without the {@code server.} prefix for joiners, e.g.
 * {@code "4=127.0.0.1:2891:3891:participant;127.0.0.1:2184"}, and member ids for leavers.
 *
 * <p>The server must allow it: Warden, as Apache ZooKeeper, needs {@code reconfigEnabled=true} and
 * an authorized session (a super user, or one the ACL of {@code /zookeeper/config} admits), and
 * answers otherwise with RECONFIG_DISABLED or NO_AUTH. A reconfig is never retried after a connection loss (it is not
 * idempotent): read {@link WardenClient#getConfig()} to learn whether it took effect.
 */
public final class WardenAdmin {
    /** Pass as {@code fromConfigVersion} to apply whatever the current configuration is. */
    public static final long ANY_VERSION = -1;

    private final WardenClient client;

    WardenAdmin(WardenClient client) {
        this.client = client;
    }

    /**
     * Adds {@code joining} and removes {@code leaving} (member ids) in one step, if the current
     * configuration version is {@code fromConfigVersion} (or {@link #ANY_VERSION}). Completes with
     * the new configuration (as {@link WardenClient#getConfig()} returns it).
     */
    public CompletableFuture<DataAndStat> reconfigure(List<String> joining, List<String> leaving, long fromConfigVersion) {
        return send(new ReconfigRequest(joinOrNull(joining), joinOrNull(leaving), null, fromConfigVersion));
    }

    /** Replaces the member list with {@code members} (bulk reconfiguration). */
    public CompletableFuture<DataAndStat> reconfigureMembers(List<String> members, long fromConfigVersion) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a new member list must name at least one member");
        }
        return send(new ReconfigRequest(null, null, String.join(",", members), fromConfigVersion));
    }

    private static String joinOrNull(List<String> specs) {
        return specs == null || specs.isEmpty() ? null : String.join(",", specs);
    }

    private CompletableFuture<DataAndStat> send(ReconfigRequest request) {
        String node = WatchTables.CONFIG_NODE;
        return client.call(OpCode.RECONFIG, request, node, false, Replies.ok(node, in -> {
            GetDataResponse response = GetDataResponse.read(in);
            return new DataAndStat(response.data(), response.stat());
        }));
    }
}

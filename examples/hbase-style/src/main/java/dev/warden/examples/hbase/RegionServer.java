package dev.warden.examples.hbase;

import dev.warden.client.WardenClient;
import dev.warden.recipes.group.GroupMember;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;

/** A region server: registered while its session lives, under the region servers' group. */
final class RegionServer implements AutoCloseable {
    private final String name;
    private final WardenClient client;
    private final Consumer<String> log;

    private RegionServer(String name, WardenClient client, Consumer<String> log) {
        this.name = name;
        this.client = client;
        this.log = log;
    }

    static RegionServer start(WardenClient client, String name, int port, ClusterPaths paths, Consumer<String> log,
                              Duration timeout) {
        GroupMember member = GroupMember.builder(paths.regionServers(), name)
                .data((name + ":" + port).getBytes(StandardCharsets.UTF_8))
                .join(client, timeout);
        log.accept("[" + name + "] registered as " + member.memberPath());
        return new RegionServer(name, client, log);
    }

    String name() {
        return name;
    }

    /** Dies: the session ends, so its registration disappears and the master notices. */
    void crash() {
        log.accept("[" + name + "] crashes");
        client.close();
    }

    @Override
    public void close() {
        client.close();
    }
}

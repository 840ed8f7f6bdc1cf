package dev.warden.examples.hbase;

import dev.warden.client.WardenClient;
import dev.warden.recipes.config.ConfigCodec;
import dev.warden.recipes.config.ConfigValue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** A client's view of where META lives: read once, then kept current by a watch. */
final class MetaLocator implements AutoCloseable {
    private final List<String> locationsSeen = new CopyOnWriteArrayList<>();
    private final ConfigValue<String> location;

    MetaLocator(WardenClient client, ClusterPaths paths, Consumer<String> log, Duration timeout) {
        this.location = ConfigValue.follow(client, paths.metaLocation(), ConfigCodec.utf8(), snapshot -> {
            snapshot.value().ifPresent(server -> {
                locationsSeen.add(server);
                log.accept("[client] META is at " + server);
            });
        }, timeout);
    }

    /** Every META location this client was told of, in order. */
    List<String> locationsSeen() {
        return List.copyOf(locationsSeen);
    }

    String current() {
        return location.current().value().orElse(null);
    }

    @Override
    public void close() {
        location.close();
    }
}

package dev.warden.client;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a client's server list to the ensemble's configuration: reads {@code /zookeeper/config}
 * with a watch when the session starts, again each time the watch fires and after every
 * reconnect (the configuration may have changed while the client was away), and hands each new
 * list of client addresses to {@link WardenClient#updateServerList}, whose host provider moves
 * just enough sessions to the new members for the load to spread (and every session whose
 * member left). A configuration older than one already applied (two reads completing out of
 * order) is ignored.
 */
final class ConfigFollower implements Watcher, StateListener {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigFollower.class);

    private final WardenClient client;
    /** The last list handed over, joined by ","; null before the first. */
    private String appliedServers;
    /** The modification zxid of the configuration applied last. */
    private long appliedZxid = -1;

    private ConfigFollower(WardenClient client) {
        this.client = client;
    }

    /** Starts following: the first read waits for the session, like any request made before it. */
    static void follow(WardenClient client) {
        ConfigFollower follower = new ConfigFollower(client);
        client.addStateListener(follower);
        follower.read();
    }

    @Override
    public void process(WatchEvent event) {
        if (event.kind() == WatchEvent.Kind.NODE_DATA_CHANGED) {
            read();
        }
    }

    @Override
    public void stateChanged(ConnectionState newState) {
        if (newState == ConnectionState.RECONNECTED) {
            read();
        }
    }

    private void read() {
        client.getConfig(this).whenComplete((config, error) -> {
            if (error == null) {
                apply(config);
            } else {
                // a lost connection: the reconnect (or the watch, re-registered with it) reads again
                LOG.debug("could not read the ensemble's configuration: {}", error.toString());
            }
        });
    }

    private synchronized void apply(DataAndStat config) {
        long zxid = config.stat().mzxid();
        List<String> servers = ConfigClientAddresses.parse(new String(config.data(), StandardCharsets.UTF_8));
        if (servers.isEmpty() || zxid < appliedZxid) {
            return;
        }
        appliedZxid = zxid;
        String list = String.join(",", servers);
        if (list.equals(appliedServers)) {
            return;
        }
        appliedServers = list;
        LOG.info("the ensemble's configuration lists {}: updating the server list", list);
        client.updateServerList(list).whenComplete((moving, error) -> {
            if (error != null) {
                LOG.warn("could not update the server list to {}: {}", list, error.toString());
            }
        });
    }
}

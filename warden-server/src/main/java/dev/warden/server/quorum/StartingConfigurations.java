package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.Entry;
import dev.warden.consensus.LogView;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.state.tree.DataTree;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a member knows of its configurations when it starts: the newest committed one, and the
 * changes in its log after it, which it counts with until it learns them committed.
 *
 * <p>The committed one is its files' (zoo.cfg or the dynamic configuration file it wrote when
 * the last change committed), unless the recovered tree shows a newer change that came from its
 * snapshot: a member snapshots only what it applied, and applies only what is committed. The
 * changes after it are read from the log, between the committed version and the change the tree
 * shows (the newest in the log), so a member that never changed its configuration reads nothing.
 */
public final class StartingConfigurations {
    private static final int READ_BATCH = 1000;

    private StartingConfigurations() {
    }

    /**
     * @param recorded the newest configuration the member recorded committed (its files'): a
     *                 server's zoo.cfg or dynamic file, the simulator's recorded one
     */
    public static Configurations find(Configuration recorded, DataTree tree, LogView log) {
        Configuration committed = recorded;
        long shownZxid = tree.configZxid();
        if (shownZxid <= committed.version()) {
            return Configurations.of(committed);
        }
        long firstInLog = log.firstReadableZxid();
        if (shownZxid <= firstInLog) {
            // the change came with the snapshot: committed
            String text = stripVersion(new String(tree.configData(), StandardCharsets.UTF_8));
            committed = EnsembleConfig.parse(text, shownZxid, "/zookeeper/config of the recovered state")
                    .toConfiguration();
            return Configurations.of(committed);
        }
        List<Configuration> logged = new ArrayList<>();
        long cursor = Math.max(committed.version(), firstInLog);
        while (cursor < shownZxid) {
            List<Entry> entries = log.read(cursor, shownZxid, READ_BATCH);
            if (entries.isEmpty()) {
                break;
            }
            for (Entry entry : entries) {
                Configuration found = ReconfigEntries.INSTANCE.configurationIn(entry);
                if (found != null && found.version() > committed.version()) {
                    logged.add(found);
                }
                cursor = entry.zxid();
            }
        }
        return new Configurations(committed, logged);
    }

    private static String stripVersion(String text) {
        int at = text.lastIndexOf("version=");
        return at < 0 ? text : text.substring(0, at);
    }
}

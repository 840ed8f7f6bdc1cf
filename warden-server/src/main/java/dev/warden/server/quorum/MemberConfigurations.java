package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A member's view of the ensemble's configurations: the committed one (saved and announced), and
 * the members its peer links reach. The driver thread hands each change over and goes on; the
 * rest happens on the {@link ConfigurationPublisher}'s thread, in the order of the changes.
 */
final class MemberConfigurations implements AutoCloseable {

    private final long myId;
    private final ServerConfig config;
    private final ConsensusFactory consensus;
    /** The run-time tree check with the other members; null with digest.enabled=false. */
    private final TreeCheck treeCheck;
    /** The newest configuration known committed, as the core gave it; any thread reads it. */
    private volatile Configuration committedConfiguration;
    /** {@link #committedConfiguration} parsed, by the first reader that needed it; may lag it, then it is parsed again. */
    private volatile EnsembleConfig committedParsed;
    /** The members of every configuration the core knows (the publisher's thread). */
    private Map<Long, QuorumMember> knownMembers;
    /** Members a waiting reconfig adds, dialled by this leader before any configuration names them (the publisher's thread). */
    private Map<Long, QuorumMember> joiners = new HashMap<>();
    /**
     * The thread that takes configuration news out of the core, in order: logs each committed
     * configuration, records it in the member's files and tells the listener, and sets the peer links.
     */
    private final ConfigurationPublisher publisher;

    /** @param startingCommitted the configuration the core starts from as committed */
    MemberConfigurations(long myId, ServerConfig config, ConsensusFactory consensus, TreeCheck treeCheck,
                         Configuration startingCommitted) {
        this.myId = myId;
        this.config = config;
        this.consensus = consensus;
        this.treeCheck = treeCheck;
        this.knownMembers = new HashMap<>(config.members());
        // the core starts from the files' configuration or a newer one its snapshot and log show
        if (startingCommitted.data().length == 0) {
            this.committedParsed = config.ensembleConfig();
        } else {
            this.committedConfiguration = startingCommitted;
            this.committedParsed = EnsembleConfig.fromConfiguration(startingCommitted);
        }
        this.publisher = new ConfigurationPublisher(myId, config.configFile(), committedParsed);
    }

    /** The newest configuration known committed; any thread (the admin figures and JMX read it). */
    EnsembleConfig committed() {
        EnsembleConfig parsed = committedParsed;
        Configuration latest = committedConfiguration;
        if (latest != null && parsed.version() != latest.version()) {
            parsed = EnsembleConfig.fromConfiguration(latest);
            committedParsed = parsed; // a reader racing with this one parses it too, to the same result
        }
        return parsed;
    }

    /** {@code listener} runs after each configuration change committed here is published, on the publisher's thread. */
    void onCommitted(Runnable listener) {
        publisher.onPublished(listener);
    }

    /**
     * Driver thread: a configuration committed. Readers see it at once; the digest check counts
     * with its members; its log line, files and listener follow on the publisher's thread.
     */
    void committed(Configuration configuration) {
        committedConfiguration = configuration;
        if (treeCheck != null) {
            Set<Long> voters = configuration.quorum().voters();
            Set<Long> members = new HashSet<>(voters);
            members.addAll(configuration.quorum().observers());
            treeCheck.configurationChanged(members, voters);
        }
        publisher.publish(configuration);
    }

    /**
     * Driver thread: the configurations the core knows changed; the peer links follow their
     * members, set on the publisher's thread (parsing the members' addresses took the driver
     * 1-30 ms per change on a loaded machine, while every follower's acknowledgement waited).
     */
    void changed(Configurations configurations) {
        publisher.execute(() -> {
            Map<Long, QuorumMember> all = new HashMap<>();
            all.put(myId, config.self());
            List<Configuration> known = new ArrayList<>(configurations.logged());
            known.add(0, configurations.committed());
            for (Configuration configuration : known) {
                all.putAll(EnsembleConfig.fromConfiguration(configuration).members());
            }
            // a joiner dialled for a reconfig is linked as a member once a configuration names it
            joiners.keySet().removeAll(all.keySet());
            knownMembers = all;
            linkMembers();
        });
    }

    /** Driver thread: a waiting reconfig's joiners to dial (on the publisher's thread, after the changes before). */
    void reachJoiners(Map<Long, QuorumMember> reached) {
        Map<Long, QuorumMember> dial = new HashMap<>(reached);
        publisher.execute(() -> {
            joiners = dial;
            linkMembers();
        });
    }

    /** Publisher's thread. */
    private void linkMembers() {
        Map<Long, QuorumMember> all = new HashMap<>(joiners);
        all.putAll(knownMembers);
        consensus.membersChanged(all);
    }

    /** Waits for the committed configurations still being published (their files above all). */
    @Override
    public void close() {
        publisher.close();
    }
}

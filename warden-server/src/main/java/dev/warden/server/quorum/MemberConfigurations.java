package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A member's view of the ensemble's configurations: the committed one (saved and announced), and the members its peer links reach. */
final class MemberConfigurations implements AutoCloseable {
    /** The member's logger: these lines are the member's. */
    private static final Logger log = LoggerFactory.getLogger(Member.class);

    private final long myId;
    private final ServerConfig config;
    private final ConsensusFactory consensus;
    /** The run-time tree check with the other members; null with digest.enabled=false. */
    private final TreeCheck treeCheck;
    /** The newest configuration known committed, for the admin figures and JMX; any thread reads it. */
    private volatile EnsembleConfig committed;
    /** The members of every configuration the core knows (driver thread). */
    private Map<Long, QuorumMember> knownMembers;
    /** Members a waiting reconfig adds, dialled by this leader before any configuration names them (driver thread). */
    private Map<Long, QuorumMember> joiners = new HashMap<>();
    /** Records committed configurations in the member's files; null for a member started without zoo.cfg. */
    private final ConfigFileRecorder files;
    /** Told after a configuration change commits (on the driver thread: it must only hand off). */
    private volatile Runnable listener = () -> { };

    /** @param startingCommitted the configuration the core starts from as committed */
    MemberConfigurations(long myId, ServerConfig config, ConsensusFactory consensus, TreeCheck treeCheck,
                         Configuration startingCommitted) {
        this.myId = myId;
        this.config = config;
        this.consensus = consensus;
        this.treeCheck = treeCheck;
        this.files = config.configFile() == null ? null : new ConfigFileRecorder(myId, config.configFile());
        this.knownMembers = new HashMap<>(config.members());
        // the core starts from the files' configuration or a newer one its snapshot and log show
        this.committed = startingCommitted.data().length == 0 ? config.ensembleConfig()
                : EnsembleConfig.fromConfiguration(startingCommitted);
    }

    /** The newest configuration known committed; any thread. */
    EnsembleConfig committed() {
        return committed;
    }

    /** {@code listener} runs after a configuration change commits here, on the driver thread. */
    void onCommitted(Runnable listener) {
        this.listener = listener;
    }

    /**
     * Driver thread: a configuration committed; it is announced, and written to the dynamic file
     * on the recorder's thread.
     */
    void committed(Configuration configuration) {
        EnsembleConfig committed = EnsembleConfig.fromConfiguration(configuration);
        this.committed = committed;
        log.info("member {}: configuration 0x{} committed: {}", myId, Long.toHexString(committed.version()),
                committed.memberText().strip().replace('\n', ' '));
        if (files != null) {
            files.record(committed);
        }
        if (treeCheck != null) {
            treeCheck.configurationChanged(committed.members().keySet(), committed.voterIds());
        }
        listener.run();
    }

    /** Driver thread: the configurations the core knows changed; the peer links follow their members. */
    void changed(Configurations configurations) {
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
    }

    /** Driver thread: a waiting reconfig's joiners to dial. */
    void reachJoiners(Map<Long, QuorumMember> reached) {
        joiners = new HashMap<>(reached);
        linkMembers();
    }

    private void linkMembers() {
        Map<Long, QuorumMember> all = new HashMap<>(joiners);
        all.putAll(knownMembers);
        consensus.membersChanged(all);
    }

    /** Waits for the configuration files still being written. */
    @Override
    public void close() {
        if (files != null) {
            files.close();
        }
    }
}

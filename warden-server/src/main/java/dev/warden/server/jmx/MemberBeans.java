package dev.warden.server.jmx;

import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.net.ServerContext;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An ensemble member's beans under ZooKeeper's names: its quorum
 * ({@code name0=ReplicatedServer_id<N>}), one {@code name1=replica.<id>} per member line (its
 * own with its state and settings), and while it leads, follows or observes,
 * {@code name2=Leader}, {@code Follower} or {@code Observer} under its own replica with the
 * server's figures (an observer's also with its learner master, {@link ObserverBean}) and
 * {@code name3=InMemoryDataTree}, and below a leader's (or an observer master's) one bean per
 * learner connected ({@link LearnerConnectionBeans}). {@link #roleChanged} moves that bean as
 * the role changes; a looking member has none, as in ZooKeeper. The replicas, the quorum size and
 * the own replica's configuration follow the configuration the member knows committed
 * ({@link #configurationChanged}), so a {@code reconfig} shows in them.
 */
public final class MemberBeans implements AutoCloseable {
    private final ServerBeans beans = new ServerBeans();
    private final ServerContext context;
    private final int clientPort;
    private final String startTime = new Date().toString();
    private final String quorum;
    private final String ownReplica;
    /** The role bean's name, null while there is none. */
    private String roleBeanName;
    /** The other members' lines their replica beans show, by id. */
    private final Map<Long, QuorumMember> remoteReplicas = new HashMap<>();
    private final LearnerConnectionBeans learnerConnections;

    private MemberBeans(ServerContext context, int clientPort) {
        this.context = context;
        this.clientPort = clientPort;
        ServerConfig config = context.config();
        this.quorum = ServerBeans.DOMAIN + ":name0=ReplicatedServer_id" + config.serverId();
        this.ownReplica = quorum + ",name1=replica." + config.serverId();
        this.learnerConnections = new LearnerConnectionBeans(beans, context.memberStatus());
        beans.register(quorum, new Quorum());
        beans.register(ownReplica, new LocalPeer(config.self()));
    }

    /** Registers the beans of the member {@code context} describes; {@code clientPort} is the bound one. */
    public static MemberBeans register(ServerContext context, int clientPort) {
        MemberBeans member = new MemberBeans(context, clientPort);
        member.configurationChanged();
        member.roleChanged();
        return member;
    }

    /** The configuration the member knows committed: its starting one until a reconfig commits another. */
    private EnsembleConfig configuration() {
        return context.memberStatus().configuration().orElse(context.config().ensembleConfig());
    }

    /**
     * Re-reads the committed configuration and makes the replica beans match it, as ZooKeeper's
     * follow a reconfig: one for each other member (re-registered when its line changed), none
     * for members that left. The member's own replica stays. Any thread, idempotent.
     */
    public synchronized void configurationChanged() {
        Map<Long, QuorumMember> wanted = new HashMap<>(configuration().members());
        wanted.remove((long) context.config().serverId());
        for (Map.Entry<Long, QuorumMember> shown : new HashMap<>(remoteReplicas).entrySet()) {
            if (!shown.getValue().equals(wanted.get(shown.getKey()))) {
                beans.unregisterFrom(quorum + ",name1=replica." + shown.getKey());
                remoteReplicas.remove(shown.getKey());
            }
        }
        for (QuorumMember member : wanted.values()) {
            if (!remoteReplicas.containsKey(member.id())) {
                beans.register(quorum + ",name1=replica." + member.id(), new RemotePeer(member));
                remoteReplicas.put(member.id(), member);
            }
        }
    }

    /** Re-reads the member's role and moves the role bean to match; any thread, idempotent. */
    public synchronized void roleChanged() {
        String wanted = roleBean().map(role -> ownReplica + ",name2=" + role).orElse(null);
        if (java.util.Objects.equals(wanted, roleBeanName)) {
            return;
        }
        if (roleBeanName != null) {
            beans.unregisterFrom(roleBeanName);
        }
        roleBeanName = wanted;
        if (wanted != null) {
            beans.register(wanted, wanted.endsWith("=Observer")
                    ? new ObserverBean(context, clientPort, startTime, this::configuration)
                    : new ServerBeans.ServerBean(context, clientPort, startTime));
            beans.register(wanted + ",name3=InMemoryDataTree", new ServerBeans.TreeBean(context));
        }
        learnerConnections.parentChanged(wanted);
    }

    /** Re-reads the learners connected to this leader or observer master and makes their beans match; any thread. */
    public synchronized void learnersChanged() {
        learnerConnections.refresh();
    }

    private Optional<String> roleBean() {
        return switch (state()) {
            case "leading" -> Optional.of("Leader");
            case "following" -> Optional.of("Follower");
            case "observing" -> Optional.of("Observer");
            default -> Optional.empty();
        };
    }

    /** ZooKeeper's words for the member's state. */
    private String state() {
        if (context.memberStatus().zabState().orElse("ELECTION").equals("ELECTION")) {
            return "looking";
        }
        return switch (context.memberStatus().mode()) {
            case "leader" -> "leading";
            case "observer" -> "observing";
            default -> "following";
        };
    }

    @Override
    public synchronized void close() {
        beans.close();
        roleBeanName = null;
    }

    private final class Quorum implements QuorumMXBean {
        private final ServerConfig config = context.config();

        @Override
        public String getName() {
            return "ReplicatedServer_id" + config.serverId();
        }

        @Override
        public int getQuorumSize() {
            return configuration().voterIds().size();
        }

        @Override
        public int getInitLimit() {
            return config.initLimitTicks();
        }

        @Override
        public int getSyncLimit() {
            return config.syncLimitTicks();
        }

        @Override
        public boolean isDigestEnabled() {
            return config.digestEnabled();
        }

        @Override
        public boolean isSslQuorum() {
            return config.security().sslQuorum();
        }

        @Override
        public boolean isPortUnification() {
            return config.security().quorumPortUnification();
        }
    }

    private class RemotePeer implements RemotePeerMXBean {
        final QuorumMember member;

        RemotePeer(QuorumMember member) {
            this.member = member;
        }

        @Override
        public String getName() {
            return "replica." + member.id();
        }

        @Override
        public String getQuorumAddress() {
            return member.host() + ":" + member.peerPort();
        }

        @Override
        public String getElectionAddress() {
            return member.host() + ":" + member.electionPort();
        }

        @Override
        public String getClientAddress() {
            return member.hasClientPort()
                    ? (member.clientHost() == null ? member.host() : member.clientHost()) + ":" + member.clientPort()
                    : "";
        }

        @Override
        public String getLearnerType() {
            return member.observer() ? "OBSERVER" : "PARTICIPANT";
        }

        @Override
        public boolean isLeader() {
            var leader = context.memberStatus().leaderId();
            return !state().equals("looking") && leader.isPresent() && leader.getAsLong() == member.id();
        }
    }

    /** The member itself: its line as for the others, plus its state and settings. */
    private final class LocalPeer implements LocalPeerMXBean {
        private final QuorumMember started;

        LocalPeer(QuorumMember member) {
            this.started = member;
        }

        /** Its own line in the committed configuration (a reconfig may change its role), else the one it started with. */
        private RemotePeer line() {
            return new RemotePeer(configuration().members().getOrDefault(started.id(), started));
        }

        @Override
        public String getName() {
            return line().getName();
        }

        @Override
        public String getQuorumAddress() {
            return line().getQuorumAddress();
        }

        @Override
        public String getElectionAddress() {
            return line().getElectionAddress();
        }

        @Override
        public String getLearnerType() {
            return line().getLearnerType();
        }

        @Override
        public boolean isLeader() {
            return line().isLeader();
        }

        @Override
        public String getClientAddress() {
            return context.config().clientPortAddress() + ":" + clientPort;
        }

        @Override
        public String getState() {
            return state();
        }

        @Override
        public long getConfigVersion() {
            return configuration().version();
        }

        @Override
        public String getQuorumSystemInfo() {
            EnsembleConfig configuration = configuration();
            StringBuilder text = new StringBuilder();
            for (QuorumMember line : configuration.members().values()) {
                text.append("server.").append(line.id()).append('=').append(line.toSpec()).append('\n');
            }
            return text.append("version=").append(Long.toHexString(configuration.version())).toString();
        }

        @Override
        public boolean isPartOfEnsemble() {
            return true;
        }

        @Override
        public int getTickTime() {
            return context.config().tickTimeMs();
        }

        @Override
        public int getInitLimit() {
            return context.config().initLimitTicks();
        }

        @Override
        public int getSyncLimit() {
            return context.config().syncLimitTicks();
        }

        @Override
        public int getMinSessionTimeout() {
            return context.config().minSessionTimeoutMs();
        }

        @Override
        public int getMaxSessionTimeout() {
            return context.config().maxSessionTimeoutMs();
        }

        @Override
        public int getMaxClientCnxnsPerHost() {
            return context.config().maxClientCnxns();
        }

        @Override
        public int getElectionType() {
            return 3;
        }

        @Override
        public String getStartTime() {
            return startTime;
        }
    }
}

package dev.warden.server.jmx;

import dev.warden.server.config.EnsembleConfig;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.net.ServerContext;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * An observing member's role bean: ZooKeeper's learner master attribute over the member's own
 * status. Addresses are the members' peer addresses ({@code host:peerPort} of their server
 * lines): Warden carries an observer's traffic with its master on the peer connections and opens
 * no observerMasterPort, so that is where the observer reaches its master.
 */
final class ObserverBean extends ServerBeans.ServerBean implements ObserverMXBean {
    private static final String UNKNOWN = "Unknown";
    private final Supplier<EnsembleConfig> configuration;

    ObserverBean(ServerContext context, int port, String startTime, Supplier<EnsembleConfig> configuration) {
        super(context, port, startTime);
        this.configuration = configuration;
    }

    @Override
    public String getLearnerMaster() {
        OptionalLong master = context.memberStatus().observerMasterId();
        QuorumMember line = master.isPresent() ? configuration.get().members().get(master.getAsLong()) : null;
        return line == null ? UNKNOWN : address(line);
    }

    @Override
    public void setLearnerMaster(String learnerMaster) {
        long id = idOf(learnerMaster == null ? "" : learnerMaster.trim());
        if (id < 0 || !context.memberStatus().requestLearnerMaster(id)) {
            throw new IllegalArgumentException("Not a valid learner master");
        }
    }

    /** A voter's id, written as one or as (the start of) its address; -1 if none matches. */
    private long idOf(String wanted) {
        if (wanted.isEmpty()) {
            return -1;
        }
        try {
            return Long.parseLong(wanted);
        } catch (NumberFormatException notAnId) {
            for (QuorumMember line : configuration.get().members().values()) {
                if (!line.observer() && address(line).startsWith(wanted)) {
                    return line.id();
                }
            }
            return -1;
        }
    }

    private static String address(QuorumMember line) {
        return line.host() + ":" + line.peerPort();
    }
}

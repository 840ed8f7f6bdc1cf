package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.ReconfigCheck;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Perms;
import dev.warden.protocol.ReconfigRequest;
import dev.warden.server.config.ConfigException;
import dev.warden.server.config.EnsembleConfig;
import dev.warden.state.auth.AclChecker;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.PrepException;
import dev.warden.state.pipeline.Reconfigurer;
import dev.warden.state.tree.DataNode;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.TxnBody;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's side of a {@code reconfig} request, in ZooKeeper 3.9's order of checks:
 * reconfigEnabled (RECONFIGDISABLED), no change in progress (RECONFIGINPROGRESS), {@code fromConfig}
 * the current version when given (BADVERSION), the request well formed and its result a valid
 * configuration (BADARGUMENTS), the new configuration's voters connected and synchronized with the
 * leader (NEWCONFIGNOQUORUM), and last WRITE on /zookeeper/config's ACL or the super user (NOAUTH).
 * Clients rely on that order: kazoo's tests expect BADVERSION, not NOAUTH, for a stale
 * {@code fromConfig} sent without credentials.
 * Runs on the driver thread, in the leader's prep, where it may ask the consensus core.
 */
final class LeaderReconfig implements Reconfigurer {
    private static final Logger log = LoggerFactory.getLogger(LeaderReconfig.class);

    private final ConsensusCore core;
    private final DataTree tree;
    private final boolean enabled;
    /** multiAddress.enabled: whether a joining line may list several addresses. */
    private final boolean multiAddressEnabled;
    /** The zxid of the last change prepared, until the core has it in its log (then the core says). */
    private long preparedZxid = -1;

    LeaderReconfig(ConsensusCore core, DataTree tree, boolean enabled, boolean multiAddressEnabled) {
        this.core = core;
        this.tree = tree;
        this.enabled = enabled;
        this.multiAddressEnabled = multiAddressEnabled;
    }

    /** A new term: whatever was prepared and not proposed is gone. */
    void reset() {
        preparedZxid = -1;
    }

    @Override
    public void prepared(long zxid) {
        preparedZxid = zxid;
    }

    @Override
    public TxnBody.Reconfig prepare(ReconfigRequest request, AuthIdentities who) throws PrepException {
        EnsembleConfig next = validate(request, true);
        ReconfigCheck check = core.checkReconfig(next.toConfiguration());
        switch (check) {
            case OK -> {
                if (!permits(who)) {
                    throw new PrepException(ErrorCode.NO_AUTH);
                }
                return new TxnBody.Reconfig(next.memberText().getBytes(StandardCharsets.UTF_8));
            }
            case IN_PROGRESS -> throw new PrepException(ErrorCode.RECONFIG_IN_PROGRESS);
            case NO_QUORUM -> {
                log.info("reconfig refused: the voters of the new configuration connected and synced with the leader"
                        + " are no quorum of it: {}", next.voterIds());
                throw new PrepException(ErrorCode.NEW_CONFIG_NO_QUORUM);
            }
            default -> throw new PrepException(ErrorCode.CONNECTION_LOSS);
        }
    }

    /**
     * The configuration {@code request} asks for, once every check before the quorum check passed
     * (the order and errors of {@link #prepare}); the quorum and permission checks are the caller's.
     * Why a malformed request is refused is logged when {@code logRefusal}: by the prep that
     * answers it, not by a look ahead that prep repeats.
     */
    EnsembleConfig validate(ReconfigRequest request, boolean logRefusal) throws PrepException {
        if (!enabled) {
            throw new PrepException(ErrorCode.RECONFIG_DISABLED);
        }
        Configurations known = core.configurations();
        if (!known.logged().isEmpty() || preparedZxid > known.committed().version()) {
            throw new PrepException(ErrorCode.RECONFIG_IN_PROGRESS);
        }
        EnsembleConfig current = EnsembleConfig.fromConfiguration(known.committed());
        if (request.curConfigId() != -1 && request.curConfigId() != current.version()) {
            throw new PrepException(ErrorCode.BAD_VERSION);
        }
        try {
            return dev.warden.server.config.ReconfigRequestParser.apply(current, request, multiAddressEnabled);
        } catch (ConfigException bad) {
            if (logRefusal) {
                log.info("reconfig refused: {}", bad.getMessage());
            }
            throw new PrepException(ErrorCode.BAD_ARGUMENTS);
        }
    }

    /** True if {@code who} may change the configuration: WRITE on /zookeeper/config, or no identities to check. */
    boolean permits(AuthIdentities who) {
        return who == null || AclChecker.permits(configAcl(), Perms.WRITE, who);
    }

    /** True while a change this leader prepared has not committed yet (logged or on its way to the log). */
    boolean changeInProgress() {
        Configurations known = core.configurations();
        return !known.logged().isEmpty() || preparedZxid > known.committed().version();
    }

    private List<dev.warden.protocol.Acl> configAcl() {
        tree.readLock().lock();
        try {
            DataNode node = tree.node(DataTree.CONFIG);
            return node.acl();
        } finally {
            tree.readLock().unlock();
        }
    }
}

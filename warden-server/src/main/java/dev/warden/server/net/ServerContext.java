package dev.warden.server.net;

import dev.warden.server.config.ServerConfig;
import dev.warden.server.pipeline.RequestPipeline;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.ReadProcessor;
import dev.warden.state.pipeline.ServedState;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.watch.WatchManager;

/** What a client connection needs from the server, in one place. */
public record ServerContext(ServerConfig config, Clock clock, StateMachine stateMachine, WatchManager watches,
                            RequestPipeline pipeline, ReadProcessor reads, ServerStats stats, ConnectionRegistry registry,
                            MemberStatus memberStatus, TraceMask traceMask,
                            dev.warden.server.security.SaslServers sasl) {

    /** A context without SASL (SASL requests are refused) and with a trace mask of its own. */
    public ServerContext(ServerConfig config, Clock clock, StateMachine stateMachine, WatchManager watches,
                         RequestPipeline pipeline, ReadProcessor reads, ServerStats stats, ConnectionRegistry registry,
                         MemberStatus memberStatus) {
        this(config, clock, stateMachine, watches, pipeline, reads, stats, registry, memberStatus, new TraceMask(), null);
    }

    /** A standalone server's context. */
    public ServerContext(ServerConfig config, Clock clock, StateMachine stateMachine, WatchManager watches,
                         RequestPipeline pipeline, ReadProcessor reads, ServerStats stats, ConnectionRegistry registry) {
        this(config, clock, stateMachine, watches, pipeline, reads, stats, registry, MemberStatus.STANDALONE);
    }

    /** The state as the client port reads it: figures and reads in place, never the tree itself. */
    public ServedState state() {
        return stateMachine;
    }
}

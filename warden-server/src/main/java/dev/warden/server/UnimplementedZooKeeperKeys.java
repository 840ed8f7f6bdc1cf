package dev.warden.server;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The ZooKeeper 3.9 server settings Warden does not implement, and what a zoo.cfg holding one
 * gets. A key whose being ignored would change safety, security or meaning (the server would do
 * something other than what the operator configured, found out only later) stops the server
 * with a {@link ConfigException} naming the key, what Warden does instead and the way out; its
 * value that means "off" (ZooKeeper's default) is accepted silently. A key whose being ignored is
 * harmless (tuning, diagnostics, ports of features that are visibly absent) is warned about and
 * ignored. docs/CONFIG.md lists every key here ("ZooKeeper keys Warden does not implement").
 *
 * <p>Each key is matched with and without a leading {@code zookeeper.}: ZooKeeper turns every
 * zoo.cfg key {@code k} it does not parse itself into the system property {@code zookeeper.k},
 * so both spellings reach the same setting.
 */
final class UnimplementedZooKeeperKeys {
    private static final String PREFIX = "zookeeper.";

    // Why a harmless key does nothing here, shared by the keys of one kind.
    private static final String TUNING = "ZooKeeper tuning Warden does not have; it has no effect here";
    private static final String PEER_TUNING = "ZooKeeper's election and peer-connection tuning; Warden's members"
            + " time their connections and elections from tickTime, initLimit and syncLimit";
    private static final String SYNC_TUNING = "how a ZooKeeper leader brings learners up to date; Warden chooses"
            + " between a diff and a snapshot itself";
    private static final String THROTTLING = "ZooKeeper's request and connection throttling; Warden bounds queued"
            + " requests with globalOutstandingLimit and connections per address with maxClientCnxns";
    private static final String WATCH_TUNING = "tunes ZooKeeper's optional watch manager; Warden has one watch table";
    private static final String FORMAT = "a detail of ZooKeeper's log and snapshot format; Warden writes its own"
            + " formats (docs/STORAGE.md)";
    private static final String TLS_DETAIL = "a TLS setting; Warden has no TLS (secureClientPort, sslQuorum and port"
            + " unification are refused), so it has no effect here";
    private static final String SASL_DETAIL = "a SASL/Kerberos setting; Warden has no SASL (authProvider.N,"
            + " quorum.auth.enableSasl and sessionRequireClientSASLAuth are refused), so it has no effect here";
    private static final String ADMIN = "Warden has no AdminServer (no HTTP port); its four-letter words answer on"
            + " the client port";
    private static final String METRICS = "Warden has no metrics providers or path statistics; mntr on the client"
            + " port gives its figures";
    private static final String DIAGNOSTICS = "ZooKeeper diagnostics (JVM pause monitor, JMX, message tracking)"
            + " Warden does not have";
    private static final String TEST_HOOK = "a ZooKeeper test hook";

    // What Warden does instead of a refused feature, and the way out.
    private static final String NO_TLS_CLIENTS = "ZooKeeper would serve TLS clients; Warden does not support TLS yet"
            + " and serves plaintext clients on clientPort only. Remove secureClientPort and secureClientPortAddress"
            + " to run without TLS.";
    private static final String NO_SASL_QUORUM = "ZooKeeper would make members authenticate each other with SASL;"
            + " Warden's members do not authenticate their peers. Remove the quorum.auth lines (or set them to"
            + " false) to run the ensemble without peer authentication, on a network only the members can reach.";
    private static final String UNAUTHENTICATED_CLIENTS = "Warden has no SASL and no authentication enforcement yet:"
            + " it serves clients that have not authenticated (ACLs still apply).";

    /**
     * One key, or a family of keys sharing a prefix.
     *
     * @param quiet      values accepted without a word (for a refused key, the ones meaning "off");
     *                   null for none
     * @param refusal    for a refused key: what Warden does instead and the way out; null for a
     *                   key that is only warned about
     * @param ignoredWhy for a warned key: why ignoring it is harmless
     */
    private record Rule(String name, boolean prefix, Predicate<String> quiet, String refusal, String ignoredWhy) {
        boolean matches(String key) {
            return prefix ? key.startsWith(name) : key.equals(name);
        }

        boolean isQuiet(String value) {
            return quiet != null && quiet.test(value);
        }

        /** How docs/CONFIG.md writes the key. */
        String documented() {
            return prefix ? name + "*" : name;
        }
    }

    private static final List<Rule> RULES = rules();
    private static final Map<String, Rule> EXACT = new HashMap<>();
    private static final List<Rule> PREFIXES = new ArrayList<>();

    static {
        for (Rule rule : RULES) {
            if (rule.prefix()) {
                PREFIXES.add(rule);
            } else if (EXACT.put(rule.name(), rule) != null) {
                throw new IllegalStateException("two rules for " + rule.name());
            }
        }
        // the most specific prefix wins: quorum.auth.enableSasl before quorum.auth.*
        PREFIXES.sort(Comparator.comparingInt((Rule rule) -> rule.name().length()).reversed());
    }

    private UnimplementedZooKeeperKeys() {
    }

    /**
     * Applies the rule for {@code key}, if there is one: throws for a refused value, warns for an
     * ignored key, says nothing for an "off" value. False if this is not a ZooKeeper key Warden knows.
     */
    static boolean check(String key, String value, Consumer<String> warnings) {
        String name = key.startsWith(PREFIX) ? key.substring(PREFIX.length()) : key;
        Rule rule = EXACT.get(name);
        if (rule == null) {
            rule = PREFIXES.stream().filter(r -> r.matches(name)).findFirst().orElse(null);
        }
        if (rule == null) {
            return false;
        }
        String trimmed = value.trim();
        if (rule.isQuiet(trimmed)) {
            return true;
        }
        if (rule.refusal() != null) {
            throw new ConfigException(key, key + "=" + trimmed + ": " + rule.refusal());
        }
        warnings.accept("ignoring '" + key + "': " + rule.ignoredWhy());
        return true;
    }

    /** Every key and key family as docs/CONFIG.md writes it (a family ends in '*'). */
    static Set<String> documentedKeys() {
        Set<String> keys = new TreeSet<>();
        RULES.forEach(rule -> keys.add(rule.documented()));
        return Collections.unmodifiableSet(keys);
    }

    private static List<Rule> rules() {
        List<Rule> r = new ArrayList<>();
        // ---- refused: ignoring them would change security, safety or meaning ----
        r.add(refuse("secureClientPort", is("0"), NO_TLS_CLIENTS));
        r.add(refuse("secureClientPortAddress", never(), NO_TLS_CLIENTS));
        r.add(refuse("client.portUnification", off(), "ZooKeeper would accept TLS clients on clientPort; Warden"
                + " does not support TLS yet, so clients that use it could not connect. Remove it (or set false)."));
        r.add(refuse("sslQuorum", off(), "ZooKeeper would encrypt the traffic between members; Warden's peer"
                + " connections are plaintext (no TLS yet). Remove it (or set false) to run the ensemble"
                + " unencrypted, on a network only the members can reach."));
        r.add(refuse("portUnification", off(), "ZooKeeper would accept TLS on the quorum ports; Warden's peer"
                + " connections are plaintext only (no TLS yet). Remove it (or set false)."));
        r.add(refusePrefix("authProvider.", UnimplementedZooKeeperKeys::builtInProvider, "ZooKeeper would"
                + " authenticate clients with that provider; Warden knows only its built-in digest and ip schemes"
                + " (no SASL, x509 or custom providers yet), so clients using the provider's scheme are refused and"
                + " ACLs naming it can never be satisfied. Remove the line if no client or ACL uses that scheme."));
        r.add(refuse("enforce.auth.enabled", off(), "ZooKeeper would refuse requests from clients that have not"
                + " authenticated; " + UNAUTHENTICATED_CLIENTS + " Remove it (or set false) and protect nodes with"
                + " ACLs."));
        r.add(refuse("sessionRequireClientSASLAuth", off(), "ZooKeeper would accept only clients authenticated with"
                + " SASL; " + UNAUTHENTICATED_CLIENTS + " Remove it (or set false)."));
        r.add(refuse("requireClientAuthScheme", never(), "it is written to require authenticated clients (ZooKeeper"
                + " 3.9 does not read it: enforce.auth.enabled does that there); " + UNAUTHENTICATED_CLIENTS
                + " Remove the line."));
        r.add(refuse("quorum.auth.enableSasl", off(), NO_SASL_QUORUM));
        r.add(refuse("quorum.auth.learnerRequireSasl", off(), NO_SASL_QUORUM));
        r.add(refuse("quorum.auth.serverRequireSasl", off(), NO_SASL_QUORUM));
        r.add(refuse("skipACL", off(), "ZooKeeper skips every ACL check with skipACL=yes; Warden always checks"
                + " ACLs, so requests ZooKeeper allowed can fail with NOAUTH. Remove it (or set skipACL=no), and give"
                + " nodes open ACLs where everyone may use them."));
        r.add(refuse("DigestAuthenticationProvider.enabled", on(), "ZooKeeper would turn the digest scheme off;"
                + " Warden always accepts digest credentials, so digest ACLs could be satisfied. Remove it (or set"
                + " true)."));
        r.add(refuse("DigestAuthenticationProvider.digestAlg", UnimplementedZooKeeperKeys::sha1, "ZooKeeper would"
                + " hash digest credentials with that algorithm; Warden uses SHA-1, so digest ACL ids and a"
                + " superDigest made with it would never match. Remove it, and use SHA-1 digests."));
        r.add(refuse("enforceQuota", off(), "ZooKeeper would refuse writes that exceed a quota set under"
                + " /zookeeper/quota; Warden does not enforce quotas, so such writes succeed. Remove it (or set"
                + " false)."));
        r.add(refuse("audit.enable", off(), "ZooKeeper would write an audit log of client operations; Warden has"
                + " no audit log yet. Remove it (or set false)."));
        r.add(refuse("electionAlg", is("3"), "ZooKeeper 3.9 accepts only 3 (fast leader election); Warden elects"
                + " its leaders the same way. Remove the line or set electionAlg=3."));
        r.add(refuse("oraclePath", never(), "ZooKeeper would let an oracle file decide the quorum of a two-member"
                + " ensemble (Oracle Quorum); Warden counts a plain majority of voters and has no oracle. Remove it,"
                + " knowing two members then stop serving when either is down (a third member avoids that)."));
        r.add(refuse("multiAddress.enabled", off(), "ZooKeeper would let a server line list several addresses"
                + " (a|b) and switch between them; Warden uses one address per member. Remove it (or set false)"
                + " and give each server line one address."));
        r.add(refuse("datadir.autocreate", on(), "ZooKeeper would refuse to start when dataDir or dataLogDir does"
                + " not exist; Warden creates missing directories, so a mistyped dataDir would start an empty"
                + " server. Remove it (or set true) after checking dataDir and dataLogDir."));
        r.add(refuse("db.autocreate", on(), "ZooKeeper would keep a member that starts without data from voting"
                + " until it has synced with a leader; Warden lets it vote at once, as ZooKeeper does by default."
                + " Remove it (or set true)."));

        // ---- warned: ignoring them is harmless ----
        r.add(warn("leaderServes", "Warden's leader always serves clients"));
        r.add(warn("syncEnabled", "Warden's observers always log and snapshot to disk (ZooKeeper's default)"));
        r.add(warn("observer.syncEnabled", "Warden's observers always log and snapshot to disk (ZooKeeper's"
                + " default)"));
        r.add(warn("quorumListenOnAllIPs", "Warden listens for peers on the address of the member's own server"
                + " line (a member that cannot bind it says so at startup)"));
        r.add(warn("localSessionsEnabled", "every Warden session is a global session (ZooKeeper's default): it"
                + " survives a move to another member and may own ephemeral nodes"));
        r.add(warn("localSessionsUpgradingEnabled", "every Warden session is a global session (ZooKeeper's default)"));
        r.add(warn("readonlymode.enabled", "Warden has no read-only mode: a member cut off from the quorum serves"
                + " no clients"));
        r.add(warn("observerMasterPort", "Warden's observers follow the leader directly"));
        r.add(warn("observerMaster.sizeLimit", "Warden's observers follow the leader directly"));
        r.add(warn("connectToLearnerMasterLimit", "Warden gives a follower initLimit ticks to connect and sync"));
        r.add(warn("maxCnxns", "Warden limits connections per client address (maxClientCnxns), not in total"));
        r.add(warn("clientPortListenBacklog", "Warden uses the operating system's listen backlog"));
        r.add(warn("snapshot.trust.empty", "Warden never starts from a log whose snapshot is missing, whatever"
                + " this says"));
        r.add(warn("snapshot.compression.method", "Warden writes its own checksummed snapshots, uncompressed"));
        r.add(warn("znode.container.maxPerMinute", "Warden does not rate-limit container deletion"));
        r.add(warn("znode.container.maxNeverUsedIntervalMs", "Warden never deletes a container that never had"
                + " children (ZooKeeper's default)"));
        r.add(warn("emulate353TTLNodes", "Warden encodes TTL nodes as ZooKeeper 3.5.4 and later do"));
        r.add(warn("enableEagerACLCheck", "an early ACL check on the member a write arrives at; Warden checks every"
                + " request's ACLs once, which refuses the same requests"));
        r.add(warn("enforce.auth.schemes", "ZooKeeper reads it only with enforce.auth.enabled=true, which Warden"
                + " refuses"));
        r.add(warn("audit.impl.class", "ZooKeeper reads it only with audit.enable=true, which Warden refuses"));
        r.add(warn("ensembleAuthName", "read only by ZooKeeper's EnsembleAuthenticationProvider, which needs an"
                + " authProvider.N line (refused)"));
        r.add(warn("superUser", SASL_DETAIL));
        r.add(warn("X509AuthenticationProvider.superUser", TLS_DETAIL));
        r.add(warn("IPAuthenticationProvider.usexforwardedfor", ADMIN));
        r.add(warn("admin.enableServer", off(), ADMIN));
        r.add(warnPrefix("admin.", ADMIN));
        r.add(warnPrefix("metricsProvider.", METRICS));
        r.add(warnPrefix("pathStats.", METRICS));
        r.add(warnPrefix("jvm.pause.", DIAGNOSTICS));
        r.add(warnPrefix("messageTracker.", DIAGNOSTICS));
        r.add(warnPrefix("jmx.", DIAGNOSTICS));
        r.add(warnPrefix("multiAddress.", "applies only with multiAddress.enabled=true, which Warden refuses"));
        r.add(warnPrefix("ssl.", TLS_DETAIL));
        for (String key : List.of("sslQuorumReloadCertFiles", "client.certReload", "fips-mode",
                "netty.server.outstandingHandshake.limit", "netty.server.earlyDropSecureConnectionHandshakes")) {
            r.add(warn(key, TLS_DETAIL));
        }
        r.add(warnPrefix("quorum.auth.", SASL_DETAIL));
        r.add(warnPrefix("kerberos.", SASL_DETAIL));
        for (String key : List.of("allowSaslFailedClients", "letAnySaslUserDoX", "SASLAuthenticationProvider.superPassword",
                "sasl.serverconfig", "kinit", "security.auth_to_local", "requireKerberosConfig", "jaasLoginRenew")) {
            r.add(warn(key, SASL_DETAIL));
        }
        for (String key : List.of("cnxTimeout", "quorumCnxnTimeoutMs", "electionPortBindRetry", "tcpKeepAlive",
                "quorum.cnxn.threads.size", "leaderConnectDelayDuringRetryMs", "observer.reconnectDelayMs",
                "observer.election.DelayMs", "maxTimeToWaitForEpoch")) {
            r.add(warn(key, PEER_TUNING));
        }
        r.add(warnPrefix("fastleader.", PEER_TUNING));
        r.add(warnPrefix("leader.", PEER_TUNING));
        r.add(warnPrefix("learner.", PEER_TUNING));
        r.add(warnPrefix("follower.", PEER_TUNING));
        for (String key : List.of("maxConcurrentSnapSyncs", "maxConcurrentDiffSyncs", "commitLogCount",
                "snapshotSizeFactor", "forward_learner_requests_to_commit_processor_disabled")) {
            r.add(warn(key, SYNC_TUNING));
        }
        for (String key : List.of("requestThrottleLimit", "requestThrottleStallTime", "requestThrottleDropStale",
                "requestStaleLatencyCheck", "requestStaleConnectionCheck", "throttledOpWaitTime",
                "throttled_op_wait_time", "largeRequestMaxBytes", "largeRequestThreshold", "connectionMaxTokens",
                "connectionTokenFillTime", "connectionTokenFillCount", "connectionFreezeTime",
                "connectionDropIncrease", "connectionDropDecrease", "connectionDecreaseRatio")) {
            r.add(warn(key, THROTTLING));
        }
        r.add(warnPrefix("request_throttle", THROTTLING));
        r.add(warnPrefix("request_stale_", THROTTLING));
        r.add(warnPrefix("connection_throttle_", THROTTLING));
        for (String key : List.of("watchManagerName", "watcherCleanThreadsNum", "watcherCleanThreshold",
                "watcherCleanIntervalInSeconds", "maxInProcessingDeadWatchers", "bitHashCacheSize")) {
            r.add(warn(key, WATCH_TUNING));
        }
        for (String key : List.of("snapSizeLimitInKb", "txnLogSizeLimitInKb", "closeSessionTxn.enabled",
                "serializeLastProcessedZxid.enabled")) {
            r.add(warn(key, FORMAT));
        }
        for (String key : List.of("serverCnxnFactory", "nio.numSelectorThreads", "nio.numWorkerThreads",
                "nio.directBufferBytes", "nio.shutdownTimeout", "netty.advancedFlowControl.enabled",
                "advancedFlowControlEnabled", "clientTcpKeepAlive", "flushDelay", "maxWriteQueuePollTime",
                "maxBatchSize", "maxResponseCacheSize", "maxGetChildrenResponseCacheSize",
                "intBufferStartingSizeBytes", "jute.maxbuffer.extrasize")) {
            r.add(warn(key, TUNING));
        }
        r.add(warnPrefix("commitProcessor.", TUNING));
        for (String key : List.of("forceSnapshotSync", "testingonly.initialZxid", "test.allowDiscontinuousProposals")) {
            r.add(warn(key, TEST_HOOK));
        }
        return r;
    }

    private static Rule refuse(String name, Predicate<String> harmless, String refusal) {
        return new Rule(name, false, harmless, refusal, null);
    }

    private static Rule refusePrefix(String prefix, Predicate<String> harmless, String refusal) {
        return new Rule(prefix, true, harmless, refusal, null);
    }

    private static Rule warn(String name, String why) {
        return new Rule(name, false, null, null, why);
    }

    /** A harmless key whose "off" value (ZooKeeper's default is "on") is not worth a warning. */
    private static Rule warn(String name, Predicate<String> quiet, String why) {
        return new Rule(name, false, quiet, null, why);
    }

    private static Rule warnPrefix(String prefix, String why) {
        return new Rule(prefix, true, null, null, why);
    }

    private static Predicate<String> off() {
        return value -> value.equalsIgnoreCase("false") || value.equalsIgnoreCase("no");
    }

    private static Predicate<String> on() {
        return value -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("yes");
    }

    private static Predicate<String> is(String harmlessValue) {
        return harmlessValue::equals;
    }

    private static Predicate<String> never() {
        return value -> false;
    }

    private static boolean sha1(String algorithm) {
        String a = algorithm.toUpperCase(Locale.ROOT);
        return a.equals("SHA1") || a.equals("SHA-1");
    }

    /** ZooKeeper's digest and ip providers, which Warden has built in. */
    private static boolean builtInProvider(String className) {
        return className.equals("org.apache.zookeeper.server.auth.DigestAuthenticationProvider")
                || className.equals("org.apache.zookeeper.server.auth.IPAuthenticationProvider");
    }
}

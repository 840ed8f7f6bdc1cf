package dev.warden.server.config;

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
    private static final String METRICS = "Warden keeps no per-path statistics; mntr, the AdminServer and"
            + " /metrics give its figures";
    private static final String TLS_DETAIL = "a ZooKeeper TLS setting Warden does not read (docs/SECURITY.md lists"
            + " the ones it does); it has no effect here";
    private static final String SASL_DETAIL = "a ZooKeeper SASL/Kerberos setting Warden does not read"
            + " (docs/SECURITY.md lists the ones it does); it has no effect here";
    private static final String QUORUM_TLS = "a setting of TLS between members, read only with sslQuorum=true or"
            + " portUnification=true, and by the AdminServer's HTTPS with admin.forceHttps=true or"
            + " admin.portUnification=true (docs/SECURITY.md); none is set, so it has no effect here";
    private static final String QUORUM_SASL = "a setting of SASL between members, read only with"
            + " quorum.auth.enableSasl=true (docs/SECURITY.md); it is not set, so this has no effect here";
    private static final String PAUSE_MONITOR = "tunes ZooKeeper's JVM pause monitor; Warden's pause watcher is"
            + " always on and logs pauses of the whole process with ZooKeeper's default thresholds (INFO from 1 s,"
            + " WARN from 10 s)";
    private static final String MESSAGE_TRACKER = "ZooKeeper's tracking of recent peer messages, which Warden does not"
            + " have";
    private static final String LOG4J_JMX = "ZooKeeper's log4j JMX beans; Warden logs through Logback and registers"
            + " no logging beans (its server beans are always registered)";
    private static final String TEST_HOOK = "a ZooKeeper test hook";

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
        return check(key, key, value, warnings);
    }

    /** As above; {@code shownAs} is how messages write the key ({@code -Dzookeeper.k} for a system property). */
    static boolean check(String key, String shownAs, String value, Consumer<String> warnings) {
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
            throw new ConfigException(key, shownAs + "=" + trimmed + ": " + rule.refusal());
        }
        warnings.accept("ignoring '" + shownAs + "': " + rule.ignoredWhy());
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
        r.add(refuse("requireClientAuthScheme", never(), "it is written to require authenticated clients, but"
                + " ZooKeeper 3.9 does not read it; enforce.auth.enabled with enforce.auth.schemes (or"
                + " sessionRequireClientSASLAuth) does that, in ZooKeeper and in Warden. Replace the line with those."));
        r.add(refuse("DigestAuthenticationProvider.enabled", on(), "ZooKeeper would turn the digest scheme off;"
                + " Warden always accepts digest credentials, so digest ACLs could be satisfied. Remove it (or set"
                + " true)."));
        r.add(refuse("DigestAuthenticationProvider.digestAlg", UnimplementedZooKeeperKeys::sha1, "ZooKeeper would"
                + " hash digest credentials with that algorithm; Warden uses SHA-1, so digest ACL ids and a"
                + " superDigest made with it would never match. Remove it, and use SHA-1 digests."));
        r.add(refuse("electionAlg", is("3"), "ZooKeeper 3.9 accepts only 3 (fast leader election); Warden elects"
                + " its leaders the same way. Remove the line or set electionAlg=3."));
        r.add(refuse("oraclePath", never(), "ZooKeeper would let an oracle file decide the quorum of a two-member"
                + " ensemble (Oracle Quorum); Warden counts a majority of voters (or by group.N and weight.N) and has no oracle. Remove it,"
                + " knowing two members then stop serving when either is down (a third member avoids that)."));
        r.add(refuse("datadir.autocreate", on(), "ZooKeeper would refuse to start when dataDir or dataLogDir does"
                + " not exist; Warden creates missing directories, so a mistyped dataDir would start an empty"
                + " server. Remove it (or set true) after checking dataDir and dataLogDir."));
        r.add(refuse("db.autocreate", on(), "ZooKeeper would keep a member that starts without data from voting"
                + " until it has synced with a leader; Warden lets it vote at once, as ZooKeeper does by default."
                + " Remove it (or set true)."));

        // ---- warned: ignoring them is harmless ----
        r.add(warn("observerMaster.sizeLimit", "an observer master syncs observers from its log, as the leader"
                + " does, and keeps in memory only the committed entries not yet on its disk"));
        r.add(warn("connectToLearnerMasterLimit", "Warden gives a follower initLimit ticks to connect and sync"));
        r.add(warn("maxCnxns", "Warden limits connections per client address (maxClientCnxns), not in total"));
        r.add(warn("clientPortListenBacklog", "Warden uses the operating system's listen backlog"));
        r.add(warn("snapshot.trust.empty", "Warden never starts from a log whose snapshot is missing, whatever"
                + " this says"));
        r.add(warn("znode.container.maxPerMinute", "Warden does not rate-limit container deletion"));
        r.add(warn("znode.container.maxNeverUsedIntervalMs", "Warden never deletes a container that never had"
                + " children (ZooKeeper's default)"));
        r.add(warn("emulate353TTLNodes", "Warden encodes TTL nodes as ZooKeeper 3.5.4 and later do"));
        r.add(warn("enableEagerACLCheck", "an early ACL check on the member a write arrives at; Warden checks every"
                + " request's ACLs once, which refuses the same requests"));
        r.add(warn("audit.impl.class", "Warden writes its audit log through its logging (logger dev.warden.audit)"
                + " and loads no audit logger class"));
        r.add(warn("IPAuthenticationProvider.usexforwardedfor", "the ip scheme of Warden's AdminServer takes the"
                + " address the connection comes from; ZooKeeper's X-Forwarded-For option is not read"));
        r.add(warnPrefix("admin.", "an AdminServer setting Warden does not have (it serves HTTP/1.1, or HTTPS with"
                + " admin.forceHttps or admin.portUnification, on admin.serverAddress:admin.serverPort; no custom"
                + " headers, HTTP versions or rate limits)"));
        r.add(warnPrefix("metricsProvider.", "a setting of ZooKeeper's metrics providers Warden does not have (its"
                + " Prometheus endpoint takes className, httpHost, httpPort and exportJvmInfo)"));
        r.add(warn("ensembleAuthName", "read only by ZooKeeper's EnsembleAuthenticationProvider, which Warden"
                + " cannot load"));
        r.add(warnPrefix("pathStats.", METRICS));
        r.add(warnPrefix("jvm.pause.", PAUSE_MONITOR));
        r.add(warnPrefix("messageTracker.", MESSAGE_TRACKER));
        r.add(warnPrefix("jmx.", LOG4J_JMX));
        r.add(warnPrefix("ssl.", TLS_DETAIL));
        r.add(warnPrefix("ssl.quorum.", QUORUM_TLS));
        r.add(warn("sslQuorumReloadCertFiles", QUORUM_TLS));
        for (String key : List.of("fips-mode",
                "netty.server.outstandingHandshake.limit", "netty.server.earlyDropSecureConnectionHandshakes")) {
            r.add(warn(key, TLS_DETAIL));
        }
        r.add(warnPrefix("quorum.auth.", QUORUM_SASL));
        r.add(warnPrefix("kerberos.", SASL_DETAIL));
        for (String key : List.of("letAnySaslUserDoX", "SASLAuthenticationProvider.superPassword", "kinit",
                "security.auth_to_local", "requireKerberosConfig", "jaasLoginRenew")) {
            r.add(warn(key, SASL_DETAIL));
        }
        for (String key : List.of("cnxTimeout", "quorumCnxnTimeoutMs", "electionPortBindRetry", "tcpKeepAlive",
                "leaderConnectDelayDuringRetryMs", "observer.election.DelayMs", "maxTimeToWaitForEpoch")) {
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
}

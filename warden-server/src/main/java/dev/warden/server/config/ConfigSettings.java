package dev.warden.server.config;

import java.util.LinkedHashMap;
import java.util.Map;

/** A {@link ServerConfig}'s settings as zoo.cfg keys and values, for conf and for writing a config back out. */
final class ConfigSettings {
    private ConfigSettings() {
    }

    /** Every setting of {@code c} under its zoo.cfg key, in the order conf lists them; null for a key with no value. */
    static Map<String, String> of(ServerConfig c) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("clientPort", Integer.toString(c.clientPort()));
        s.put("clientPortAddress", c.clientPortAddress());
        s.put("dataDir", c.dataDir().toString());
        s.put("dataLogDir", c.dataLogDir().toString());
        s.put("tickTime", Integer.toString(c.tickTimeMs()));
        s.put("maxClientCnxns", Integer.toString(c.maxClientCnxns()));
        s.put("minSessionTimeout", Integer.toString(c.minSessionTimeoutMs()));
        s.put("maxSessionTimeout", Integer.toString(c.maxSessionTimeoutMs()));
        s.put("serverId", Integer.toString(c.serverId()));
        s.put("snapCount", Integer.toString(c.snapCount()));
        s.put("autopurge.snapRetainCount", Integer.toString(c.autopurgeSnapRetainCount()));
        s.put("autopurge.purgeInterval", Integer.toString(c.autopurgePurgeIntervalHours()));
        s.put("jute.maxbuffer", Integer.toString(c.juteMaxBuffer()));
        s.put("4lw.commands.whitelist", String.join(",", c.fourLetterWordWhitelist()));
        s.put("superDigest", c.superDigest());
        s.put("extendedTypesEnabled", Boolean.toString(c.extendedTypesEnabled()));
        s.put("forceSync", c.forceSync() ? "yes" : "no");
        s.put("globalOutstandingLimit", Integer.toString(c.globalOutstandingLimit()));
        s.put("maxWatchesPerSession", Integer.toString(c.maxWatchesPerSession()));
        s.put("znode.container.checkIntervalMs", Long.toString(c.containerCheckIntervalMs()));
        s.put("sessionlessConnectionTimeoutMs", Long.toString(c.sessionlessConnectionTimeoutMs()));
        s.put("preAllocSize", Long.toString(c.preAllocSizeBytes() / 1024));
        s.put("fsync.warningthresholdms", Long.toString(c.fsyncWarningThresholdMs()));
        s.put("txnLogDirectIo", Boolean.toString(c.txnLogDirectIo()));
        s.put("inlineIdleWrites", Boolean.toString(c.inlineIdleWrites()));
        s.put("digest.enabled", Boolean.toString(c.digestEnabled()));
        s.put("reconfigEnabled", Boolean.toString(c.reconfigEnabled()));
        s.put("enforceQuota", Boolean.toString(c.enforceQuota()));
        s.put("skipACL", c.skipAcl() ? "yes" : "no");
        s.put("localSessionsEnabled", Boolean.toString(c.localSessions().enabled()));
        s.put("localSessionsUpgradingEnabled", Boolean.toString(c.localSessions().upgradingEnabled()));
        s.put("audit.enable", Boolean.toString(c.auditEnabled()));
        s.put("snapshot.compression.method",
                c.snapshotCompression() == dev.warden.storage.SnapshotCompression.GZIP ? "gz" : "");
        s.put("admin.enableServer", Boolean.toString(c.adminServer().enabled()));
        s.put("admin.serverAddress", c.adminServer().address());
        s.put("admin.serverPort", Integer.toString(c.adminServer().port()));
        s.put("admin.commandURL", c.adminServer().commandUrl());
        s.put("admin.idleTimeout", Long.toString(c.adminServer().idleTimeoutMs()));
        s.put("admin.rateLimiterIntervalInMS", Long.toString(c.adminServer().rateLimiterIntervalMs()));
        s.put("admin.restore.enabled", Boolean.toString(c.adminServer().restoreEnabled()));
        s.put("admin.snapshot.enabled", Boolean.toString(c.adminServer().snapshotEnabled()));
        if (c.metrics().prometheus()) {
            s.put("metricsProvider.className", MetricsSettings.PROMETHEUS_PROVIDER);
            s.put("metricsProvider.httpHost", c.metrics().httpHost());
            s.put("metricsProvider.httpPort", Integer.toString(c.metrics().httpPort()));
            s.put("metricsProvider.exportJvmInfo", Boolean.toString(c.metrics().exportJvmInfo()));
        }
        s.putAll(c.security().settings());
        // Ensemble keys only for a member: a standalone server warns about them and ignores them.
        if (c.isEnsemble()) {
            s.put("initLimit", Integer.toString(c.initLimitTicks()));
            s.put("syncLimit", Integer.toString(c.syncLimitTicks()));
            s.put("standaloneEnabled", Boolean.toString(c.standaloneEnabled()));
            s.put("quorumListenOnAllIPs", Boolean.toString(c.quorumListenOnAllIPs()));
            if (!c.observerSyncEnabled()) {
                s.put("syncEnabled", "false");
            }
            if (c.observer().masterPort() > 0) {
                s.put("observerMasterPort", Integer.toString(c.observer().masterPort()));
            }
            // only when set, like the multiAddress keys below: ZooKeeper reads it as a system property
            if (c.observer().reconnectDelayMs() > 0) {
                s.put("observer.reconnectDelayMs", Long.toString(c.observer().reconnectDelayMs()));
            }
            // only when set: ZooKeeper's conf does not list them, and most ensembles leave them alone
            MultiAddressSettings defaults = MultiAddressSettings.DEFAULTS;
            if (c.multiAddress().enabled() != defaults.enabled()) {
                s.put("multiAddress.enabled", Boolean.toString(c.multiAddress().enabled()));
            }
            if (c.multiAddress().reachabilityCheckEnabled() != defaults.reachabilityCheckEnabled()) {
                s.put("multiAddress.reachabilityCheckEnabled", Boolean.toString(c.multiAddress().reachabilityCheckEnabled()));
            }
            if (c.multiAddress().reachabilityCheckTimeoutMs() != defaults.reachabilityCheckTimeoutMs()) {
                s.put("multiAddress.reachabilityCheckTimeoutMs",
                        Integer.toString(c.multiAddress().reachabilityCheckTimeoutMs()));
            }
            s.put("leaderServes", c.leaderServes() ? "yes" : "no");
            s.put("readonlymode.enabled", Boolean.toString(c.readOnlyModeEnabled()));
            s.put("peerType", c.self().observer() ? "observer" : "participant");
            c.members().forEach((id, member) -> s.put("server." + id, member.toSpec()));
            for (String line : c.quorumGroups().lines().split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    s.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            // hexadecimal, as ZooKeeper writes it in /zookeeper/config and reads it beside server lines
            s.put("version", Long.toHexString(c.configVersion()));
        }
        return s;
    }
}

package dev.warden.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Whatever a valid config holds, standalone or ensemble member (its member lines and their
 * version included), writing it out as zoo.cfg properties and reading it back loses nothing.
 */
class ServerConfigRoundTripTest {

    @Property(tries = 300)
    void toPropertiesThenFromPropertiesIsIdentity(
            @ForAll @IntRange(min = 1, max = 100_000) int tickTimeMs,
            @ForAll("directories") String dataDir,
            @ForAll("directories") String dataLogDir,
            @ForAll @IntRange(min = 0, max = 65535) int clientPort,
            @ForAll @IntRange(min = 0, max = 10_000) int maxClientCnxns,
            @ForAll @IntRange(min = 1, max = 1_000_000) int minSessionTimeoutMs,
            @ForAll @IntRange(min = 0, max = 1_000_000) int sessionTimeoutSpreadMs,
            @ForAll @IntRange(min = 3, max = 100) int snapRetainCount,
            @ForAll("whitelists") Set<String> whitelist,
            @ForAll boolean extendedTypesEnabled,
            @ForAll boolean forceSync,
            @ForAll @LongRange(min = 1, max = 1L << 40) long containerCheckIntervalMs,
            @ForAll @LongRange(min = 1, max = 1L << 30) long preAllocSizeKib,
            @ForAll @LongRange(min = 1, max = 1L << 40) long fsyncWarningThresholdMs,
            @ForAll boolean txnLogDirectIo,
            @ForAll boolean inlineIdleWrites) {
        ServerConfig original = ServerConfig.builder()
                .tickTimeMs(tickTimeMs).dataDir(Path.of(dataDir)).dataLogDir(Path.of(dataLogDir))
                .clientPort(clientPort).maxClientCnxns(maxClientCnxns)
                .minSessionTimeoutMs(minSessionTimeoutMs)
                .maxSessionTimeoutMs(minSessionTimeoutMs + sessionTimeoutSpreadMs)
                .autopurgeSnapRetainCount(snapRetainCount).fourLetterWordWhitelist(whitelist)
                .extendedTypesEnabled(extendedTypesEnabled).forceSync(forceSync)
                .containerCheckIntervalMs(containerCheckIntervalMs).preAllocSizeBytes(preAllocSizeKib * 1024)
                .fsyncWarningThresholdMs(fsyncWarningThresholdMs).txnLogDirectIo(txnLogDirectIo)
                .inlineIdleWrites(inlineIdleWrites).build();
        List<String> warnings = new ArrayList<>();
        assertEquals(original, ConfigLoader.fromProperties(original.toProperties(), warnings::add));
        assertEquals(List.of(), warnings);
    }

    @Property(tries = 100)
    void anEnsembleMembersLinesAndTheirVersionSurviveTheRoundTrip(
            @ForAll @IntRange(min = 1, max = 7) int memberCount,
            @ForAll @IntRange(min = 1, max = 7) int selfSeed,
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long configVersion,
            @ForAll boolean lastIsObserver,
            @ForAll boolean clientParts,
            @ForAll boolean standaloneEnabled,
            @ForAll @IntRange(min = 1, max = 1000) int initLimitTicks,
            @ForAll @IntRange(min = 1, max = 1000) int syncLimitTicks,
            @ForAll @IntRange(min = 0, max = 65535) int observerMasterPort,
            @ForAll @LongRange(min = 0, max = 1L << 40) long observerReconnectDelayMs) throws IOException {
        Map<Long, QuorumMember> members = new TreeMap<>();
        for (long id = 1; id <= memberCount; id++) {
            boolean observer = lastIsObserver && memberCount > 1 && id == memberCount;
            members.put(id, new QuorumMember(id, "h" + id, 2000 + (int) id, 3000 + (int) id, observer,
                    null, clientParts ? 4000 + (int) id : 0));
        }
        int serverId = 1 + (selfSeed - 1) % memberCount;
        Path dataDir = Files.createTempDirectory("round-trip");
        try {
            Files.writeString(dataDir.resolve("myid"), serverId + "\n");
            ServerConfig original = ServerConfig.builder().dataDir(dataDir).serverId(serverId).members(members)
                    .clientPort(clientParts ? 4000 + serverId : 2181).configVersion(configVersion)
                    // a single line with standaloneEnabled=true reads back as a standalone server
                    .standaloneEnabled(memberCount > 1 && standaloneEnabled)
                    .initLimitTicks(initLimitTicks).syncLimitTicks(syncLimitTicks)
                    .observerMasterPort(observerMasterPort).observerReconnectDelayMs(observerReconnectDelayMs).build();
            assertEquals(original, ConfigLoader.fromProperties(original.toProperties(), warning -> { }));
        } finally {
            Files.delete(dataDir.resolve("myid"));
            Files.delete(dataDir);
        }
    }

    @Provide
    Arbitrary<String> directories() {
        return Arbitraries.strings().withChars("abcxyz/._- ").ofMinLength(1).ofMaxLength(20)
                // values are trimmed on load, so a path that starts or ends with a space (after
                // Path drops a trailing slash) cannot be written in zoo.cfg at all
                .filter(s -> !s.isBlank() && Path.of(s).toString().equals(Path.of(s).toString().trim()));
    }

    @Provide
    Arbitrary<Set<String>> whitelists() {
        return Arbitraries.of(ServerConfig.KNOWN_FOUR_LETTER_WORDS).set().ofMaxSize(5);
    }
}

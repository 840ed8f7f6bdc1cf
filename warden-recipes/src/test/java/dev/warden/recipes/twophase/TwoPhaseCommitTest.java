package dev.warden.recipes.twophase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.recipes.testing.RecipeTarget;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TwoPhaseCommitTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final byte[] PAYLOAD = "move 10 from a to b".getBytes(StandardCharsets.UTF_8);
    private static final List<String> SITES = List.of("s1", "s2", "s3");
    @TempDir
    Path dataDir;
    private RecipeTarget server;
    private TwoPhaseCoordinator coordinator;
    private WardenClient coordinatorClient;
    private String root;

    @BeforeEach
    void start() throws Exception {
        server = RecipeTarget.start(dataDir);
        root = RecipeTarget.freshPath("2pc");
        coordinatorClient = server.client();
        coordinator = new TwoPhaseCoordinator(coordinatorClient, root);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String begin() {
        return coordinatorClient.blocking(TIMEOUT).await(coordinator.begin("tx1", PAYLOAD, SITES));
    }

    private List<TwoPhaseSite> joinAll(String tx) {
        List<TwoPhaseSite> sites = new ArrayList<>();
        for (String site : SITES) {
            sites.add(TwoPhaseSite.join(server.client(), tx, site, TIMEOUT));
        }
        return sites;
    }

    @Test
    void unanimousCommitVotesCommitEverywhere() throws Exception {
        String tx = begin();
        List<TwoPhaseSite> sites = joinAll(tx);
        List<CompletableFuture<Decision>> decisions = new ArrayList<>();
        for (TwoPhaseSite site : sites) {
            assertArrayEquals(PAYLOAD, site.payload());
            decisions.add(site.awaitDecision());
        }
        CompletableFuture<Decision> coordinatorView = coordinator.awaitDecision(tx);
        for (TwoPhaseSite site : sites) {
            site.vote(Decision.COMMIT).get(10, TimeUnit.SECONDS);
        }
        for (CompletableFuture<Decision> decision : decisions) {
            assertEquals(Decision.COMMIT, decision.get(10, TimeUnit.SECONDS));
        }
        assertEquals(Decision.COMMIT, coordinatorView.get(10, TimeUnit.SECONDS));
        assertEquals(Decision.COMMIT, coordinatorClient.blocking(TIMEOUT).await(coordinator.abortIfUndecided(tx)),
                "the first published outcome holds");
        coordinatorClient.blocking(TIMEOUT).await(coordinator.delete(tx));
        assertEquals(List.of(), coordinatorClient.blocking(TIMEOUT).getChildren(root));
    }

    @Test
    void oneAbortVoteAbortsEveryoneWithoutWaitingForTheRest() {
        String tx = begin();
        List<TwoPhaseSite> sites = joinAll(tx);
        sites.get(0).vote(Decision.COMMIT).join();
        sites.get(1).vote(Decision.ABORT).join();
        for (TwoPhaseSite site : sites) {
            assertEquals(Decision.ABORT, site.awaitDecision(TIMEOUT), "s3 has not voted and need not");
        }
        assertThrows(WardenException.BadVersionException.class,
                () -> coordinatorClient.blocking(TIMEOUT).await(sites.get(0).vote(Decision.ABORT)), "one vote per site");
    }

    @Test
    void aSiteThatCrashesBeforeVotingIsDetectedByItsEphemeralNodeAndAborts() throws Exception {
        String tx = begin();
        TwoPhaseSite s1 = TwoPhaseSite.join(server.client(), tx, "s1", TIMEOUT);
        TwoPhaseSite s2 = TwoPhaseSite.join(server.client(), tx, "s2", TIMEOUT);
        RecipeTarget.ProxiedClient doomed = server.proxiedClient(RecipeTarget.SHORT_SESSION_TIMEOUT);
        TwoPhaseSite.join(doomed.client(), tx, "s3", TIMEOUT);
        s1.vote(Decision.COMMIT).join();
        s2.vote(Decision.COMMIT).join();
        CompletableFuture<Decision> decision = s1.awaitDecision();
        Thread.sleep(200);
        assertEquals(false, decision.isDone(), "s3 is alive and may still vote");

        doomed.proxy().cut();
        assertEquals(Decision.ABORT, decision.get(20, TimeUnit.SECONDS));
        assertEquals(Decision.ABORT, s2.awaitDecision(TIMEOUT));
    }

    @Test
    void theCoordinatorAbortsForASiteThatNeverJoinsAndStrangersCannotJoin() {
        String tx = begin();
        TwoPhaseSite s1 = TwoPhaseSite.join(server.client(), tx, "s1", TIMEOUT);
        s1.vote(Decision.COMMIT).join();
        assertThrows(WardenException.NoNodeException.class, () -> TwoPhaseSite.join(server.client(), tx, "s9", TIMEOUT));
        assertThrows(WardenException.TimeoutException.class, () -> coordinator.awaitDecision(tx, Duration.ofMillis(300)));
        assertEquals(Decision.ABORT, coordinatorClient.blocking(TIMEOUT).await(coordinator.abortIfUndecided(tx)));
        assertEquals(Decision.ABORT, s1.awaitDecision(TIMEOUT));
    }
}

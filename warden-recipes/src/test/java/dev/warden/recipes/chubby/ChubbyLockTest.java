package dev.warden.recipes.chubby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.recipes.testing.RecipeTarget.ProxiedClient;
import dev.warden.recipes.testing.RecipeTarget;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChubbyLockTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private RecipeTarget target;

    @BeforeAll
    void start() {
        target = RecipeTarget.start();
    }

    @AfterAll
    void stop() {
        target.close();
    }

    @Test
    void resourceServerRejectsAHolderWhoseSessionExpired() throws Exception {
        String dir = RecipeTarget.freshPath("chubby");
        ProxiedClient paused = target.proxiedClient(Duration.ofSeconds(3));
        ChubbyLock stale = new ChubbyLock(paused.client(), dir);
        ChubbyLock next = new ChubbyLock(target.client(), dir);
        SequencerChecker resourceServer = new SequencerChecker(target.client());

        assertTrue(stale.acquire(WAIT));
        Sequencer staleSequencer = stale.getSequencer(WAIT);
        assertEquals(0, staleSequencer.version());
        assertTrue(resourceServer.setSequencer(staleSequencer).get(5, TimeUnit.SECONDS));
        assertTrue(resourceServer.isCurrent(staleSequencer));

        paused.proxy().pause();
        assertTrue(next.acquire(Duration.ofSeconds(20)));
        Sequencer nextSequencer = next.getSequencer(WAIT);

        assertFalse(resourceServer.checkSequencer(staleSequencer, WAIT), "the expired holder is refused");
        assertFalse(resourceServer.isCurrent(staleSequencer), "the watch dropped the stale sequencer");
        assertTrue(resourceServer.checkSequencer(nextSequencer, WAIT));
        assertTrue(resourceServer.setSequencer(nextSequencer).get(5, TimeUnit.SECONDS));
        next.release();
        assertFalse(resourceServer.checkSequencer(nextSequencer, WAIT), "a released lock's sequencer is stale");
    }

    @Test
    void tryAcquireFailsWhileHeldAndSequencerNeedsTheLock() {
        String dir = RecipeTarget.freshPath("chubby-try");
        ChubbyLock holder = new ChubbyLock(target.client(), dir);
        ChubbyLock other = new ChubbyLock(target.client(), dir);
        assertThrows(IllegalStateException.class, () -> other.getSequencer(WAIT));
        assertTrue(holder.tryAcquire());
        assertThrows(IllegalStateException.class, holder::tryAcquire);
        assertFalse(other.tryAcquire());
        holder.release();
        assertTrue(other.tryAcquire());
        other.release();
    }

    @Test
    void dataChangeOnTheLockNodeMakesTheSequencerStale() {
        String dir = RecipeTarget.freshPath("chubby-version");
        ChubbyLock holder = new ChubbyLock(target.client(), dir);
        SequencerChecker checker = new SequencerChecker(target.client());
        assertTrue(holder.acquire(WAIT));
        Sequencer sequencer = holder.getSequencer(WAIT);
        target.client().blocking(WAIT).setData(sequencer.nodePath(), new byte[] {1});
        assertFalse(checker.checkSequencer(sequencer, WAIT));
        assertEquals(1, holder.getSequencer(WAIT).version());
        holder.release();
    }

    @Test
    void sequencerEncodingRoundTripsAndRejectsJunk() {
        Sequencer sequencer = new Sequencer("/locks/a/_p_x-lock-0000000003", 2);
        assertEquals(sequencer, Sequencer.parse(sequencer.encode()));
        assertThrows(IllegalArgumentException.class, () -> Sequencer.parse("no-version"));
        assertThrows(IllegalArgumentException.class, () -> Sequencer.parse("/a@x"));
        assertThrows(IllegalArgumentException.class, () -> Sequencer.parse("relative@1"));
        assertThrows(IllegalArgumentException.class, () -> new Sequencer("/a", -1));
    }
}

package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.server.config.ServerConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How srvr, stat and mntr reflect an ensemble member's status (the standalone case is in it.FourLetterWordsTest). */
class MemberStatusWordsTest {

    private static ServerContext contextWith(MemberStatus status) {
        ServerConfig config = ServerConfig.builder().fourLetterWordWhitelist(Set.of("*")).build();
        // Nothing else is consulted while the member is not serving.
        return new ServerContext(config, null, null, null, null, null, null, null, status, new TraceMask(), null);
    }

    @Test
    void aMemberThatIsNotServingSaysSoToTheStateWords() {
        MemberStatus looking = new MemberStatus() {
            @Override
            public String mode() {
                return "follower";
            }

            @Override
            public boolean serving() {
                return false;
            }
        };
        for (String word : new String[] {"srvr", "stat", "mntr", "cons", "conf", "wchs", "wchc", "wchp", "dump",
                "dirs", "srst", "crst"}) {
            assertEquals("This ZooKeeper instance is not currently serving requests\n",
                    FourLetterWords.respond(word, contextWith(looking)), word);
        }
        assertEquals("This ZooKeeper instance is not currently serving requests",
                FourLetterWords.respond("hash", contextWith(looking)));
        assertEquals("imok", FourLetterWords.respond("ruok", contextWith(looking)));
        // as ZooKeeper's isro on a server that is not running: neither ro nor rw
        assertEquals("null", FourLetterWords.respond("isro", contextWith(looking)));
        assertEquals("306", FourLetterWords.respond("gtmk", contextWith(looking)));
    }

    @Test
    void aMemberServingReadOnlySessionsSaysRoAndAllowsIsroWithoutTheWhitelist() {
        MemberStatus readOnly = new MemberStatus() {
            @Override
            public String mode() {
                return "follower";
            }

            @Override
            public boolean serving() {
                return false;
            }

            @Override
            public boolean readOnly() {
                return true;
            }

            @Override
            public Optional<String> servingMode() {
                return Optional.of(READ_ONLY_MODE);
            }
        };
        // readonlymode.enabled puts isro on the whitelist, as ZooKeeper does: read-only clients ask it
        ServerConfig onlySrvr = ServerConfig.builder().readOnlyModeEnabled(true).build();
        assertEquals("ro", FourLetterWords.respond("isro",
                new ServerContext(onlySrvr, null, null, null, null, null, null, null, readOnly, new TraceMask(), null)));
        ServerConfig withoutReadOnly = ServerConfig.builder().build();
        assertEquals("isro is not executed because it is not in the whitelist.\n", FourLetterWords.respond("isro",
                new ServerContext(withoutReadOnly, null, null, null, null, null, null, null, readOnly,
                        new TraceMask(), null)));
    }

    @Test
    void aLeaderAddsItsFiguresToMntr() {
        MemberStatus leader = new MemberStatus() {
            @Override
            public String mode() {
                return "leader";
            }

            @Override
            public Optional<LeaderFigures> leaderFigures() {
                return Optional.of(new LeaderFigures(4, 2, 1, 1, 3));
            }

            @Override
            public Optional<Reign> reign() {
                return Optional.of(new Reign(1, 2, 10_000));
            }
        };
        Map<String, Object> out = new LinkedHashMap<>();
        Monitor.leaderLines(out, leader, 12_500);
        assertEquals("{leader_uptime=2500, learners=4, synced_followers=2, synced_non_voting_followers=0,"
                + " synced_observers=1, pending_syncs=1, quorum_size=3}", out.toString());
        Map<String, Object> none = new LinkedHashMap<>();
        Monitor.leaderLines(none, MemberStatus.STANDALONE, 12_500);
        assertEquals(Map.of(), none);
        assertEquals("standalone", MemberStatus.STANDALONE.mode());
    }
}

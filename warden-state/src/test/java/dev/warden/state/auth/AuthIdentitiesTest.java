package dev.warden.state.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.Id;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The identities a connection proved, in the order ZooKeeper's clients observe them. */
class AuthIdentitiesTest {
    @Test
    void aNewConnectionIsItsAddressAlone() {
        AuthIdentities who = new AuthIdentities("10.0.0.7");
        assertEquals(List.of(new Id("ip", "10.0.0.7")), who.ids());
        assertFalse(who.isSuper());
        assertThrows(UnsupportedOperationException.class, () -> who.ids().add(new Id("digest", "x")));
    }

    @Test
    void addingTheAddressIdentityAgainChangesNothing() {
        AuthIdentities who = new AuthIdentities("10.0.0.9");
        List<Id> before = who.ids();
        who.add(new Id("ip", "10.0.0.9"));
        assertSame(before, who.ids(), "the same list: nothing was rebuilt");
    }

    @Test
    void addedIdentitiesFollowJuteHashOrderWithTheAddress() {
        Id ip = new Id("ip", "192.168.1.2");
        Id zkcli = new Id("digest", "zkcli:abcdefghijklmnopqrstuvwxyz0=");
        Id bob = new Id("digest", "bob:0123456789abcdefghijklmnopq=");
        AuthIdentities who = new AuthIdentities("192.168.1.2");
        who.add(zkcli);
        who.add(bob);
        assertEquals(juteHashSetOrder(ip, zkcli, bob), who.ids());
        // adding an identity it already has changes nothing
        who.add(bob);
        assertEquals(juteHashSetOrder(ip, zkcli, bob), who.ids());
    }

    /** The iteration order of ZooKeeper's identity set: a concurrent hash set keyed by jute's Id hash. */
    private static List<Id> juteHashSetOrder(Id... ids) {
        record JuteKey(Id id) {
            @Override
            public int hashCode() {
                return 37 * (37 * 17 + id.scheme().hashCode()) + id.id().hashCode();
            }
        }
        java.util.Set<JuteKey> set = java.util.concurrent.ConcurrentHashMap.newKeySet();
        for (Id id : ids) {
            set.add(new JuteKey(id));
        }
        return set.stream().map(JuteKey::id).toList();
    }

    @Test
    void connectionsSharingTheirAddressIdentityAddTheirOwnIdentities() {
        List<Id> shared = AuthIdentities.addressIdentity("10.0.0.7");
        AuthIdentities first = new AuthIdentities(shared);
        AuthIdentities second = new AuthIdentities(shared);
        first.add(new Id("digest", "alice:x"));
        assertEquals(2, first.ids().size());
        assertEquals(List.of(new Id("ip", "10.0.0.7")), second.ids());
        assertEquals(List.of(new Id("ip", "10.0.0.7")), shared);
        assertEquals("10.0.0.7", second.address());
        assertThrows(IllegalArgumentException.class,
                () -> new AuthIdentities(List.of(new Id("digest", "alice:x"))));
    }

    @Test
    void aSuperIdentityMakesTheConnectionSuper() {
        AuthIdentities who = new AuthIdentities("10.0.0.7");
        who.add(new Id(AuthIdentities.SUPER_SCHEME, ""));
        assertTrue(who.isSuper());
        assertEquals(2, who.ids().size());
    }
}

package dev.warden.state.auth;

import dev.warden.protocol.Id;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The identities a connection has proved: always ip:&lt;address&gt;, plus digest ids from
 * addauth, plus super when a digest matched the configured super digest.
 *
 * They are kept in a hash set ordered by jute's Id hash, as ZooKeeper keeps them, because that
 * order is visible to clients: it is the order of whoAmI's answer and of the entries an
 * {@code auth} ACL expands into.
 */
public final class AuthIdentities {
    public static final String SUPER_SCHEME = "super";

    private final String address;
    /**
     * Null while the only identity is the address: most connections never add one, and the set
     * with its list cost about 300 bytes on each of them. Guarded by this object's lock.
     */
    private Set<IdKey> ids;
    /** The set's iteration order, rebuilt on the rare add so permission checks allocate nothing. */
    private volatile List<Id> ordered;
    /** skipACL=yes: every permission is granted, as to the super user, without naming an identity. */
    private volatile boolean aclChecksSkipped;

    public AuthIdentities(String clientAddress) {
        this(addressIdentity(clientAddress));
    }

    /**
     * Starts from an {@link #addressIdentity} list, which connections from one address may share:
     * the list is immutable and replaced, not changed, when an identity is added.
     */
    public AuthIdentities(List<Id> addressIdentity) {
        if (addressIdentity.size() != 1 || !addressIdentity.get(0).scheme().equals("ip")) {
            throw new IllegalArgumentException("not an address identity: " + addressIdentity);
        }
        this.address = addressIdentity.get(0).id();
        this.ordered = addressIdentity;
    }

    /** The identity list of a connection that has proved nothing yet: ip:&lt;address&gt;, immutable. */
    public static List<Id> addressIdentity(String clientAddress) {
        return Collections.singletonList(new Id("ip", clientAddress));
    }

    /** Identities in the order clients observe them. */
    public List<Id> ids() {
        return ordered;
    }

    public synchronized void add(Id id) {
        if (ids == null && id.equals(ordered.get(0))) {
            return; // the address identity, held already: no set is needed for it
        }
        if (ids == null) {
            ids = Collections.newSetFromMap(new ConcurrentHashMap<>());
            ids.add(new IdKey(ordered.get(0)));
        }
        if (ids.add(new IdKey(id))) {
            List<Id> rebuilt = new ArrayList<>(ids.size());
            for (IdKey key : ids) {
                rebuilt.add(key.id());
            }
            ordered = Collections.unmodifiableList(rebuilt);
        }
    }

    /** skipACL=yes: from now on every ACL check passes for these identities. */
    public void skipAclChecks() {
        aclChecksSkipped = true;
    }

    public boolean isSuper() {
        if (aclChecksSkipped) {
            return true;
        }
        for (Id id : ordered) {
            if (id.scheme().equals(SUPER_SCHEME)) {
                return true;
            }
        }
        return false;
    }

    public String address() {
        return address;
    }

    /** An Id hashed the way jute's generated Id record hashes. */
    private record IdKey(Id id) {
        @Override
        public int hashCode() {
            int result = 17;
            result = 37 * result + id.scheme().hashCode();
            return 37 * result + id.id().hashCode();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof IdKey key && key.id().equals(id);
        }
    }
}

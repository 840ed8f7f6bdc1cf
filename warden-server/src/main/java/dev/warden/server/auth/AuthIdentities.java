package dev.warden.server.auth;

import dev.warden.protocol.Id;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The identities a connection has proved: always ip:&lt;address&gt;, plus digest ids from
 * addauth, plus super when a digest matched the configured super digest.
 */
public final class AuthIdentities {
    public static final String SUPER_SCHEME = "super";
    private final List<Id> ids = new CopyOnWriteArrayList<>();

    public AuthIdentities(String clientAddress) {
        ids.add(new Id("ip", clientAddress));
    }

    public List<Id> ids() {
        return ids;
    }

    public void add(Id id) {
        if (!ids.contains(id)) {
            ids.add(id);
        }
    }

    public boolean isSuper() {
        for (Id id : ids) {
            if (id.scheme().equals(SUPER_SCHEME)) {
                return true;
            }
        }
        return false;
    }

    public String address() {
        return ids.get(0).id();
    }
}

package dev.warden.state.auth;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/** Permission checks and ACL validation on create/setACL (WIRE-PROTOCOL.md §7.4, §7.5). */
public final class AclChecker {
    private AclChecker() {
    }

    public static boolean permits(List<Acl> acl, int perm, AuthIdentities who) {
        if (acl == null || acl.isEmpty() || who.isSuper()) {
            return true;
        }
        for (Acl entry : acl) {
            if ((entry.perms() & perm) == 0) {
                continue;
            }
            Id id = entry.id();
            if (id.scheme().equals("world") && id.id().equals("anyone")) {
                return true;
            }
            for (Id mine : who.ids()) {
                if (!mine.scheme().equals(id.scheme())) {
                    continue;
                }
                if (id.scheme().equals("ip") ? IpMatcher.matches(id.id(), mine.id()) : id.id().equals(mine.id())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Validates an ACL list and expands auth:* entries into the connection's authenticated
     * (non-ip) identities. Returns null when the list is invalid (INVALIDACL).
     */
    public static List<Acl> fixup(List<Acl> acl, AuthIdentities who) {
        if (acl == null || acl.isEmpty()) {
            return null;
        }
        LinkedHashSet<Acl> result = new LinkedHashSet<>();
        for (Acl entry : acl) {
            Id id = entry.id();
            if (id == null || id.scheme() == null) {
                return null;
            }
            switch (id.scheme()) {
                case "world" -> {
                    if (!"anyone".equals(id.id())) {
                        return null;
                    }
                    result.add(entry);
                }
                case "auth" -> {
                    boolean any = false;
                    for (Id mine : who.ids()) {
                        if (!mine.scheme().equals("ip") && !mine.scheme().equals(AuthIdentities.SUPER_SCHEME)) {
                            result.add(new Acl(entry.perms(), mine));
                            any = true;
                        }
                    }
                    if (!any) {
                        return null;
                    }
                }
                case "digest" -> {
                    if (!Digests.isValidId(id.id())) {
                        return null;
                    }
                    result.add(entry);
                }
                case "x509", "sasl" -> {
                    // identities from a verified certificate or a SASL exchange: any non-empty name
                    if (id.id() == null || id.id().isEmpty()) {
                        return null;
                    }
                    result.add(entry);
                }
                case "ip" -> {
                    if (!IpMatcher.isValidId(id.id())) {
                        return null;
                    }
                    result.add(entry);
                }
                default -> {
                    return null;
                }
            }
        }
        return new ArrayList<>(result);
    }

    /** getACL without ADMIN masks digest hashes to user:x. */
    public static List<Acl> maskDigests(List<Acl> acl) {
        List<Acl> masked = new ArrayList<>(acl.size());
        for (Acl entry : acl) {
            if (entry.id().scheme().equals("digest")) {
                String user = entry.id().id().split(":", 2)[0];
                masked.add(new Acl(entry.perms(), new Id("digest", user + ":x")));
            } else {
                masked.add(entry);
            }
        }
        return masked;
    }

    public static boolean canRead(List<Acl> acl, AuthIdentities who) {
        return permits(acl, Perms.READ, who);
    }
}

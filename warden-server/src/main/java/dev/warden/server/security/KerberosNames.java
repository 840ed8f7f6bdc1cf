package dev.warden.server.security;

/**
 * The parts of a Kerberos principal {@code service/host@REALM}, and the name ZooKeeper's
 * {@code kerberos.removeHostFromPrincipal} and {@code kerberos.removeRealmFromPrincipal} make
 * of it for the {@code sasl} identity.
 */
record KerberosNames(String service, String host, String realm) {
    public static KerberosNames parse(String principal) {
        String rest = principal;
        String realm = null;
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            realm = rest.substring(at + 1);
            rest = rest.substring(0, at);
        }
        String host = null;
        int slash = rest.indexOf('/');
        if (slash >= 0) {
            host = rest.substring(slash + 1);
            rest = rest.substring(0, slash);
        }
        return new KerberosNames(rest, host, realm);
    }

    /** The identity: the principal less its host and/or realm, as configured. */
    public String identity(boolean removeHost, boolean removeRealm) {
        StringBuilder name = new StringBuilder(service);
        if (host != null && !removeHost) {
            name.append('/').append(host);
        }
        if (realm != null && !removeRealm) {
            name.append('@').append(realm);
        }
        return name.toString();
    }
}

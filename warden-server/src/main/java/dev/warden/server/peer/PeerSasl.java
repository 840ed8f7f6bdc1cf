package dev.warden.server.peer;

import dev.warden.protocol.sasl.SaslCredentials;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.security.QuorumSaslSettings;
import dev.warden.server.security.SaslServers;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Members authenticating each other with SASL, as ZooKeeper's {@code quorum.auth.*} keys set it.
 * The dialling member is the SASL client ({@link SaslCredentials}, the learner section); the member
 * dialled the SASL server ({@link SaslServers#forMembers}, the server section), and both
 * DIGEST-MD5 and GSSAPI prove each side to the other. With {@code serverRequireSasl} a member
 * takes no message from a member that has not authenticated; with {@code learnerRequireSasl} it
 * sends none to a member that has not proven itself. With neither, it authenticates where it
 * can and carries on where it cannot: the first step of turning SASL on without downtime.
 *
 * @param learner null when SASL is off
 * @param servers null when SASL is off
 */
record PeerSasl(boolean enabled, boolean learnerRequireSasl, boolean serverRequireSasl, SaslCredentials learner,
                SaslServers servers) {
    static final PeerSasl OFF = new PeerSasl(false, false, false, null, null);

    /**
     * Reads both sections of the JAAS file (logging in from keytabs for Kerberos), so a missing
     * section or a failed login stops the member at start.
     */
    static PeerSasl of(QuorumSaslSettings settings, Path jaasFile, Collection<QuorumMember> members) {
        if (!settings.enabled()) {
            return OFF;
        }
        Set<String> hosts = new TreeSet<>();
        members.forEach(m -> m.addresses().forEach(address -> hosts.add(address.host())));
        SaslServers servers;
        try {
            servers = SaslServers.forMembers(jaasFile, settings.serverLoginContext(), hosts);
        } catch (IllegalArgumentException bad) {
            throw new IllegalArgumentException("quorum.auth.server.saslLoginContext: " + bad.getMessage(), bad);
        }
        SaslCredentials learner = SaslCredentials.load(jaasFile, settings.learnerLoginContext(),
                "quorum.auth.learner.saslLoginContext", SaslServers.QUORUM_DIGEST_PROTOCOL,
                SaslServers.QUORUM_DIGEST_SERVER_NAME, settings.servicePrincipal());
        return new PeerSasl(true, settings.learnerRequireSasl(), settings.serverRequireSasl(), learner, servers);
    }
}

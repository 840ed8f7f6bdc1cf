package dev.warden.server;

import dev.warden.server.config.ConfigException;
import dev.warden.server.security.SaslServers;
import dev.warden.server.security.SaslSettings;

/** The client port's SASL servers, from the JAAS file's server section; none without a JAAS file. */
final class ClientSasl {
    private ClientSasl() {
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ClientSasl.class);

    static SaslServers serversFor(SaslSettings settings, boolean saslRequired) {
        if (!settings.configured()) {
            return null;
        }
        var section = SaslServers.jaas(settings.jaasFile()).getAppConfigurationEntry(settings.serverSection());
        if (section == null && !saslRequired) {
            // a JAAS file for the members alone: clients' SASL requests are refused
            LOG.info("no '{}' section in {}: SASL is not offered to clients", settings.serverSection(),
                    settings.jaasFile());
            return null;
        }
        try {
            return SaslServers.load(settings.jaasFile(), settings.serverSection(), settings.removeHostFromPrincipal(),
                    settings.removeRealmFromPrincipal());
        } catch (IllegalArgumentException bad) {
            throw new ConfigException("java.security.auth.login.config", bad.getMessage(), bad);
        }
    }
}

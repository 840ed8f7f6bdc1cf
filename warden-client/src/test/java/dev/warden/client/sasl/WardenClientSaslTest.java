package dev.warden.client.sasl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.ConnectionState;
import dev.warden.client.WardenClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.Acl;
import dev.warden.protocol.ClientInfo;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import dev.warden.protocol.sasl.SaslCredentials;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import dev.warden.server.security.TestKdc;
import dev.warden.testsupport.FaultProxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Warden's own client authenticating with SASL from a JAAS section, as the Apache client does
 * with its {@code Client} section: DIGEST-MD5 against a server's {@code Server} users, and
 * GSSAPI against a KDC in this JVM. The session holds the sasl identity before its first request,
 * so a server requiring SASL serves it; a wrong password ends the client with AUTH_FAILED.
 */
class WardenClientSaslTest {
    private static final String JAAS = """
            Server {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              user_carol="carol-sasl-secret";
            };
            Client {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="carol" password="carol-sasl-secret";
            };
            WrongPassword {
              org.apache.zookeeper.server.auth.DigestLoginModule required
              username="carol" password="not-carols-password";
            };
            """;

    @TempDir
    static Path dir;
    static Path jaasFile;
    static WardenServer strict;

    @BeforeAll
    static void start() throws Exception {
        jaasFile = Files.writeString(dir.resolve("jaas.conf"), JAAS);
        strict = WardenServer.start(ConfigLoader.fromProperties(cfg("strict", jaasFile), w -> { }));
    }

    static Properties cfg(String name, Path jaas) {
        Properties p = new Properties();
        p.setProperty("dataDir", dir.resolve(name).toString());
        p.setProperty("clientPort", "0");
        p.setProperty("java.security.auth.login.config", jaas.toString());
        p.setProperty("sessionRequireClientSASLAuth", "true");
        return p;
    }

    @AfterAll
    static void stop() {
        if (strict != null) {
            strict.close();
        }
    }

    private static WardenClient connect(String connectString, SaslCredentials sasl,
                                        BlockingQueue<ConnectionState> states) throws Exception {
        return WardenClient.builder().connectString(connectString).sessionTimeout(Duration.ofSeconds(10))
                .connectTimeout(Duration.ofSeconds(5)).sasl(sasl).stateListener(states::add).connect()
                .get(15, TimeUnit.SECONDS);
    }

    @Test
    void digestMd5GivesTheSessionItsSaslIdentityBeforeItsFirstRequest() throws Exception {
        SaslCredentials carol = SaslCredentials.forClient(jaasFile, "Client", SaslCredentials.CLIENT_SERVICE_PRINCIPAL);
        try (WardenClient client = connect(strict.connectString(), carol, new LinkedBlockingQueue<>())) {
            // the server requires SASL: any request before the exchange would have closed the session
            List<ClientInfo> whoAmI = client.whoAmI().get(5, TimeUnit.SECONDS);
            assertTrue(whoAmI.contains(new ClientInfo("sasl", "carol")), whoAmI.toString());
            client.create("/carols", "mine".getBytes(), List.of(new Acl(Perms.ALL, new Id("sasl", "carol"))),
                    CreateMode.PERSISTENT).get(5, TimeUnit.SECONDS);
            assertArrayEquals("mine".getBytes(), client.getData("/carols").get(5, TimeUnit.SECONDS).data());
        }
    }

    /** The server's identity is per connection: a reconnected client authenticates again before its next request. */
    @Test
    void aReconnectedClientAuthenticatesAgainBeforeItsNextRequest() throws Exception {
        SaslCredentials carol = SaslCredentials.forClient(jaasFile, "Client", SaslCredentials.CLIENT_SERVICE_PRINCIPAL);
        BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
        try (FaultProxy proxy = FaultProxy.start(strict.connectString());
             WardenClient client = connect(proxy.address(), carol, states)) {
            assertEquals(ConnectionState.CONNECTED, states.poll(5, TimeUnit.SECONDS));
            proxy.drop();
            assertEquals(ConnectionState.SUSPENDED, states.poll(5, TimeUnit.SECONDS));
            assertEquals(ConnectionState.RECONNECTED, states.poll(10, TimeUnit.SECONDS));
            // the server requires SASL: without a new exchange this request would close the session
            List<ClientInfo> whoAmI = client.whoAmI().get(5, TimeUnit.SECONDS);
            assertTrue(whoAmI.contains(new ClientInfo("sasl", "carol")), whoAmI.toString());
            assertTrue(proxy.acceptedConnections() >= 2, "the client went through a second connection");
        }
    }

    @Test
    void aWrongPasswordEndsTheClientWithAuthFailedWhileOthersServe() throws Exception {
        SaslCredentials wrong = SaslCredentials.forClient(jaasFile, "WrongPassword",
                SaslCredentials.CLIENT_SERVICE_PRINCIPAL);
        BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();
        ExecutionException refused = assertThrows(ExecutionException.class, () -> connect(strict.connectString(),
                wrong, states));
        WardenException cause = assertInstanceOf(WardenException.class, refused.getCause());
        assertEquals(ErrorCode.AUTH_FAILED, cause.code(), cause.toString());
        assertEquals(ConnectionState.AUTH_FAILED, states.poll(5, TimeUnit.SECONDS));
        assertTrue(ConnectionState.AUTH_FAILED.isTerminal());
        SaslCredentials carol = SaslCredentials.forClient(jaasFile, "Client", SaslCredentials.CLIENT_SERVICE_PRINCIPAL);
        try (WardenClient client = connect(strict.connectString(), carol, new LinkedBlockingQueue<>())) {
            client.exists("/").get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void kerberosGivesTheSessionItsPrincipal() throws Exception {
        Path kdcDir = Files.createDirectories(dir.resolve("kerberos"));
        Path serverKeytab = TestKdc.keytab(kdcDir, "zookeeper/localhost");
        Path clientKeytab = TestKdc.keytab(kdcDir, "dave/localhost");
        Path kerberosJaas = Files.writeString(kdcDir.resolve("jaas.conf"),
                TestKdc.section("Server", serverKeytab, "zookeeper/localhost@" + TestKdc.REALM)
                + TestKdc.section("Client", clientKeytab, "dave/localhost@" + TestKdc.REALM));
        Properties p = cfg("kerberos", kerberosJaas);
        p.setProperty("kerberos.removeHostFromPrincipal", "true");
        p.setProperty("kerberos.removeRealmFromPrincipal", "true");
        try (WardenServer server = WardenServer.start(ConfigLoader.fromProperties(p, w -> { }))) {
            int port = Integer.parseInt(server.connectString().substring(server.connectString().lastIndexOf(':') + 1));
            SaslCredentials dave = SaslCredentials.forClient(kerberosJaas, "Client",
                    SaslCredentials.CLIENT_SERVICE_PRINCIPAL);
            // the ticket is for zookeeper/<the host dialled>: dial it by that name
            try (WardenClient client = connect("localhost:" + port, dave, new LinkedBlockingQueue<>())) {
                List<ClientInfo> whoAmI = client.whoAmI().get(5, TimeUnit.SECONDS);
                assertTrue(whoAmI.contains(new ClientInfo("sasl", "dave")), whoAmI.toString());
            }
        }
    }
}

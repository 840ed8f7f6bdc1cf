package dev.warden.server.security;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ConfigLoader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A TLS client port that is taken stops the server with the address, secureClientPort and the cause. */
class SecurePortInUseTest {
    @Test
    void aSecureClientPortInUseIsNamedWithItsKey(@TempDir Path dir) throws Exception {
        TestPki ca = TestPki.create(dir.resolve("pki"), "test-ca");
        Path keyStore = ca.keyStore(ca.issue("warden-server"), TestPki.StoreType.PKCS12);
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            Properties zooCfg = new Properties();
            zooCfg.setProperty("dataDir", dir.resolve("data").toString());
            zooCfg.setProperty("clientPort", "0");
            zooCfg.setProperty("secureClientPort", Integer.toString(taken.getLocalPort()));
            zooCfg.setProperty("ssl.keyStore.location", keyStore.toString());
            zooCfg.setProperty("ssl.keyStore.password", TestPki.PASSWORD);
            IOException refused = assertThrows(IOException.class,
                    () -> WardenServer.start(ConfigLoader.fromProperties(zooCfg, warning -> { })).close());
            String message = refused.getMessage();
            assertTrue(message.startsWith("cannot listen for clients on 127.0.0.1:" + taken.getLocalPort()
                    + " (secureClientPortAddress, secureClientPort): "), message);
            assertTrue(message.contains("choose another secureClientPort"), message);
        }
        // the data directory was let go: a server starts on it at once
        Properties plain = new Properties();
        plain.setProperty("dataDir", dir.resolve("data").toString());
        plain.setProperty("clientPort", "0");
        WardenServer.start(ConfigLoader.fromProperties(plain, warning -> { })).close();
    }
}

package dev.warden.server.security;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/** Clients for the TLS tests: the Apache Java client over its Netty socket, and raw TLS sockets. */
final class TlsClients {
    private TlsClients() {
    }

    /** The Apache client's TLS settings, as its users write them. */
    static ZKClientConfig apacheConfig(Path keyStore, Path trustStore) {
        ZKClientConfig config = new ZKClientConfig();
        config.setProperty("zookeeper.client.secure", "true");
        config.setProperty("zookeeper.clientCnxnSocket", "org.apache.zookeeper.ClientCnxnSocketNetty");
        if (keyStore != null) {
            config.setProperty("zookeeper.ssl.keyStore.location", keyStore.toString());
            config.setProperty("zookeeper.ssl.keyStore.password", TestPki.PASSWORD);
        }
        config.setProperty("zookeeper.ssl.trustStore.location", trustStore.toString());
        config.setProperty("zookeeper.ssl.trustStore.password", TestPki.PASSWORD);
        return config;
    }

    /** A connected Apache session, or null if none came within {@code waitMs}. */
    static ZooKeeper apache(String connectString, ZKClientConfig config, long waitMs) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, config);
        if (!connected.await(waitMs, TimeUnit.MILLISECONDS)) {
            zk.close();
            return null;
        }
        return zk;
    }

    /**
     * Opens a TLS connection presenting {@code keyStore} (or nothing), sends a ConnectRequest
     * and reads the answer's length. Returns true if the server answered, false if it refused
     * (an alert, a reset, or end of stream before any answer).
     */
    static boolean rawTlsSession(int port, Path keyStore, TestPki.StoreType type, Path trustStore) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        KeyManagerFactory keys = null;
        if (keyStore != null) {
            KeyStore store = KeyStore.getInstance(type.name());
            try (InputStream in = java.nio.file.Files.newInputStream(keyStore)) {
                store.load(in, TestPki.PASSWORD.toCharArray());
            }
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, TestPki.PASSWORD.toCharArray());
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = java.nio.file.Files.newInputStream(trustStore)) {
            trusted.load(in, TestPki.PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
        trust.init(trusted);
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            plain.setSoTimeout(5_000);
            try (SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true)) {
                tls.startHandshake();
                tls.getOutputStream().write(connectRequest());
                tls.getOutputStream().flush();
                int length = new DataInputStream(tls.getInputStream()).readInt();
                return length > 0;
            }
        } catch (IOException refused) {
            return false;
        }
    }

    /** A new session's ConnectRequest frame (protocol 0, zxid 0, 10 s, no session, empty password). */
    static byte[] connectRequest() {
        java.nio.ByteBuffer frame = java.nio.ByteBuffer.allocate(4 + 4 + 8 + 4 + 8 + 4 + 16 + 1);
        frame.putInt(frame.capacity() - 4).putInt(0).putLong(0).putInt(10_000).putLong(0).putInt(16)
                .put(new byte[16]).put((byte) 0);
        return frame.array();
    }
}

package dev.warden.bench.compare;

import dev.warden.cli.cluster.Flavour;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings both flavours get, in every topology: fsync on, a large frame limit (so 1 MiB
 * values fit), no per-address connection limit, every four-letter word, ZooKeeper's usual 2 s tick.
 */
final class MemberConfig {
    static final int TICK_TIME_MS = 2000;

    private MemberConfig() {
    }

    /**
     * zoo.cfg lines shared by standalone and ensemble members, beyond ports and directories. No
     * clientPortAddress: in an ensemble Apache ZooKeeper takes the client address from the server
     * lines and refuses a different one, and every address used here is loopback anyway.
     */
    static List<String> commonLines(Flavour flavour, int juteMaxBufferBytes) {
        List<String> lines = new ArrayList<>(List.of(
                "maxClientCnxns=0",
                "forceSync=yes",
                "4lw.commands.whitelist=*"));
        switch (flavour) {
            case APACHE -> lines.add("admin.enableServer=false");
            // Apache reads its frame limit as a system property, see Deployment.commonSystemProperties
            case WARDEN -> lines.add("jute.maxbuffer=" + juteMaxBufferBytes);
        }
        return lines;
    }

    /** The engine both servers' client ports run TLS on: BoringSSL, from netty-tcnative on the class path. */
    static final String TLS_ENGINE = "OPENSSL";
    static final String TLS_PROTOCOL = "TLSv1.3";

    /**
     * zoo.cfg lines that put a member's clients (and, with {@code quorum}, its peer and election
     * ports) on TLS, identical in meaning for both flavours: the same stores, mutual TLS on both,
     * TLS 1.3, and for Apache ZooKeeper the Netty connection factory (its NIO factory has no TLS)
     * with the OpenSSL engine Warden uses where it loads. Apache ZooKeeper turns every key it does
     * not know itself into a {@code zookeeper.}-prefixed system property, which is where it reads
     * {@code serverCnxnFactory} and the {@code ssl.*} keys from. {@code secureClientPort} is per
     * member and written by the caller.
     */
    static List<String> tlsLines(Flavour flavour, TlsMaterial tls, boolean quorum) {
        List<String> lines = new ArrayList<>(storeLines("ssl.", tls));
        lines.add("ssl.clientAuth=need");
        lines.add("ssl.protocol=" + TLS_PROTOCOL);
        if (flavour == Flavour.APACHE) {
            lines.add("serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory");
            lines.add("ssl.sslProvider=" + TLS_ENGINE);
        }
        if (quorum) {
            lines.add("sslQuorum=true");
            lines.addAll(storeLines("ssl.quorum.", tls));
            lines.add("ssl.quorum.protocol=" + TLS_PROTOCOL);
        }
        return lines;
    }

    private static List<String> storeLines(String prefix, TlsMaterial tls) {
        return List.of(
                prefix + "keyStore.location=" + tls.keyStore(),
                prefix + "keyStore.password=" + tls.password(),
                prefix + "keyStore.type=PKCS12",
                prefix + "trustStore.location=" + tls.trustStore(),
                prefix + "trustStore.password=" + tls.password(),
                prefix + "trustStore.type=PKCS12");
    }

    /** Writes a plaintext standalone member's zoo.cfg under {@code memberDir} and returns it. */
    static Path writeStandalone(Flavour flavour, Path memberDir, int clientPort, int juteMaxBufferBytes)
            throws IOException {
        return writeStandalone(flavour, memberDir, clientPort, juteMaxBufferBytes, List.of());
    }

    /**
     * Writes a standalone member's zoo.cfg under {@code memberDir}, with {@code extraLines} (the
     * TLS settings, for instance) after the common ones, and returns it.
     */
    static Path writeStandalone(Flavour flavour, Path memberDir, int clientPort, int juteMaxBufferBytes,
                                List<String> extraLines) throws IOException {
        Path dataDir = memberDir.resolve("data");
        Files.createDirectories(dataDir);
        List<String> lines = new ArrayList<>(List.of(
                "tickTime=" + TICK_TIME_MS,
                "dataDir=" + dataDir.toAbsolutePath(),
                "clientPort=" + clientPort,
                "clientPortAddress=127.0.0.1"));
        lines.addAll(commonLines(flavour, juteMaxBufferBytes));
        lines.addAll(extraLines);
        Path config = memberDir.resolve("zoo.cfg");
        Files.write(config, lines, StandardCharsets.UTF_8);
        return config;
    }
}

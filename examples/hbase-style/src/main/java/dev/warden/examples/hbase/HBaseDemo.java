package dev.warden.examples.hbase;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/**
 * Runs {@link HBaseScenario} and prints what happens. With a connect string argument it uses
 * that ensemble (under a fresh root node); without one it starts a Warden server in this JVM.
 *
 * <p>Usage: {@code HBaseDemo [connectString] [regionCount]}
 */
public final class HBaseDemo {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private HBaseDemo() {
    }

    public static void main(String[] args) throws IOException {
        String connectString = args.length > 0 && !args[0].isBlank() ? args[0] : null;
        int regionCount = args.length > 1 ? parseCount(args[1]) : 6;
        String root = "/hbase-demo-" + Long.toHexString(System.nanoTime());
        if (connectString != null) {
            new HBaseScenario(connectString, root, regionCount, HBaseDemo::print).run();
            return;
        }
        Path dataDir = Files.createTempDirectory("warden-hbase-demo");
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).clientPortAddress("127.0.0.1").build();
        try (WardenServer server = WardenServer.start(config)) {
            print("[demo] started a Warden server at " + server.connectString() + " (data in " + dataDir + ")");
            new HBaseScenario(server.connectString(), root, regionCount, HBaseDemo::print).run();
        }
    }

    private static int parseCount(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("regionCount must be a number, got '" + text + "'", e);
        }
    }

    private static void print(String line) {
        System.out.println(LocalTime.now().format(TIME) + " " + line);
    }
}

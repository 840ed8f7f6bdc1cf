package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.EnsembleConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed configurations reach the files and the listener in commit order, and a failed write
 * does not stop the member.
 */
class ConfigurationPublisherTest {
    private static final String THREE = "server.1=127.0.0.1:2888:3888:participant;2181\n"
            + "server.2=127.0.0.1:2889:3889:participant;2182\nserver.3=127.0.0.1:2890:3890:participant;2183\n";

    private static final EnsembleConfig THREE_MEMBERS = EnsembleConfig.parse(THREE, 0x100000000L, "test");

    @TempDir
    Path dir;

    @Test
    void writesEveryCommittedChangeInOrderAndCloseWaitsForThem() throws IOException {
        Path zooCfg = dir.resolve("zoo.cfg");
        Files.writeString(zooCfg, "tickTime=2000\ndataDir=" + dir + "\n" + THREE, StandardCharsets.UTF_8);
        EnsembleConfig first = EnsembleConfig.parse(THREE + "server.4=127.0.0.1:2891:3891:participant;2184\n",
                0x100000010L, "test");
        EnsembleConfig second = EnsembleConfig.parse(THREE, 0x100000020L, "test");
        ConfigurationPublisher publisher = new ConfigurationPublisher(1, zooCfg, THREE_MEMBERS);
        List<String> told = new CopyOnWriteArrayList<>();
        publisher.onPublished(() -> told.add(Thread.currentThread().getName() + " after "
                + Files.exists(dir.resolve("zoo.cfg.dynamic.100000010"))));
        publisher.publish(first.toConfiguration());
        publisher.publish(second.toConfiguration());
        publisher.close();

        String rewritten = Files.readString(zooCfg);
        assertTrue(rewritten.contains("dynamicConfigFile=" + dir.resolve("zoo.cfg.dynamic.100000020").toAbsolutePath()),
                rewritten);
        assertFalse(rewritten.contains("server."), rewritten);
        assertEquals(second.memberText(), Files.readString(dir.resolve("zoo.cfg.dynamic.100000020")));
        assertTrue(Files.exists(dir.resolve("zoo.cfg.dynamic.100000010")), "the earlier change was written first");
        assertEquals(List.of("warden-1-configurations after true", "warden-1-configurations after true"), told,
                "the listener runs on the publisher's thread, once per change, after the files");
    }

    @Test
    void aMemberWithoutZooCfgStillTellsItsListener() throws InterruptedException {
        ConfigurationPublisher publisher = new ConfigurationPublisher(1, null, THREE_MEMBERS);
        CountDownLatch told = new CountDownLatch(1);
        publisher.onPublished(told::countDown);
        publisher.publish(EnsembleConfig.parse(THREE, 0x100000010L, "test").toConfiguration());
        assertTrue(told.await(10, TimeUnit.SECONDS));
        publisher.close();
    }

    @Test
    void aWriteThatFailsIsLoggedAndTheNextOneStillHappens() throws IOException {
        ConfigurationPublisher broken = new ConfigurationPublisher(1, dir.resolve("missing").resolve("zoo.cfg"),
                THREE_MEMBERS);
        broken.publish(EnsembleConfig.parse(THREE, 0x100000010L, "test").toConfiguration()); // must not throw here
        broken.close();

        Path zooCfg = dir.resolve("zoo.cfg");
        Files.writeString(zooCfg, "tickTime=2000\n" + THREE, StandardCharsets.UTF_8);
        ConfigurationPublisher publisher = new ConfigurationPublisher(1, zooCfg, THREE_MEMBERS);
        publisher.publish(EnsembleConfig.parse(THREE, 0x100000030L, "test").toConfiguration());
        publisher.close();
        assertTrue(Files.exists(dir.resolve("zoo.cfg.dynamic.100000030")));
    }
}

package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.EnsembleConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Committed configurations reach the files in commit order, and a failed write does not stop the member. */
class ConfigFileRecorderTest {
    private static final String THREE = "server.1=127.0.0.1:2888:3888:participant;2181\n"
            + "server.2=127.0.0.1:2889:3889:participant;2182\nserver.3=127.0.0.1:2890:3890:participant;2183\n";

    @TempDir
    Path dir;

    @Test
    void writesEveryCommittedChangeInOrderAndCloseWaitsForThem() throws IOException {
        Path zooCfg = dir.resolve("zoo.cfg");
        Files.writeString(zooCfg, "tickTime=2000\ndataDir=" + dir + "\n" + THREE, StandardCharsets.UTF_8);
        EnsembleConfig first = EnsembleConfig.parse(THREE + "server.4=127.0.0.1:2891:3891:participant;2184\n",
                0x100000010L, "test");
        EnsembleConfig second = EnsembleConfig.parse(THREE, 0x100000020L, "test");
        ConfigFileRecorder recorder = new ConfigFileRecorder(1, zooCfg);
        recorder.record(first);
        recorder.record(second);
        recorder.close();

        String rewritten = Files.readString(zooCfg);
        assertTrue(rewritten.contains("dynamicConfigFile=" + dir.resolve("zoo.cfg.dynamic.100000020").toAbsolutePath()),
                rewritten);
        assertFalse(rewritten.contains("server."), rewritten);
        assertEquals(second.memberText(), Files.readString(dir.resolve("zoo.cfg.dynamic.100000020")));
        assertTrue(Files.exists(dir.resolve("zoo.cfg.dynamic.100000010")), "the earlier change was written first");
    }

    @Test
    void aWriteThatFailsIsLoggedAndTheNextOneStillHappens() throws IOException {
        ConfigFileRecorder broken = new ConfigFileRecorder(1, dir.resolve("missing").resolve("zoo.cfg"));
        broken.record(EnsembleConfig.parse(THREE, 0x100000010L, "test")); // must not throw on the caller's thread
        broken.close();

        Path zooCfg = dir.resolve("zoo.cfg");
        Files.writeString(zooCfg, "tickTime=2000\n" + THREE, StandardCharsets.UTF_8);
        ConfigFileRecorder recorder = new ConfigFileRecorder(1, zooCfg);
        recorder.record(EnsembleConfig.parse(THREE, 0x100000030L, "test"));
        recorder.close();
        assertTrue(Files.exists(dir.resolve("zoo.cfg.dynamic.100000030")));
    }
}

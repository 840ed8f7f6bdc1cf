package dev.warden.chaos.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataFilesTest {
    @TempDir
    Path data;

    private Path file(String relative, int bytes) throws Exception {
        Path path = data.resolve(relative);
        Files.createDirectories(path.getParent());
        byte[] content = new byte[bytes];
        new Random(1).nextBytes(content);
        Files.write(path, content);
        return path;
    }

    @Test
    void theNewestSnapshotIsChosenByZxidNotByNameLength() throws Exception {
        Path older = file("snapshots/snapshot.ff", 1000);
        Path newer = file("snapshots/snapshot.100", 1000);
        byte[] olderBefore = Files.readAllBytes(older);
        assertEquals(List.of(older, newer), DataFiles.snapshots(Flavour.WARDEN, data));
        assertTrue(DataFiles.corruptNewestSnapshot(Flavour.WARDEN, data).contains("snapshot.100"));
        assertArrayEquals(olderBefore, Files.readAllBytes(older), "only the newest is damaged");
        assertEquals((byte) 0xA5, Files.readAllBytes(newer)[500]);
    }

    @Test
    void purgeTakesTheOldestSegmentAndDamageStaysInsideTheWrittenPart() throws Exception {
        Path first = file("version-2/log.100", 4096);
        Path second = file("version-2/log.200", 4096);
        assertTrue(DataFiles.purgeOldestSegment(Flavour.APACHE, data).contains("log.100"));
        assertFalse(Files.exists(first));
        byte[] before = Files.readAllBytes(second);
        assertTrue(DataFiles.damageSegment(Flavour.APACHE, data, new Random(3)).startsWith("inverted 64 bytes"));
        byte[] after = Files.readAllBytes(second);
        int changed = 0;
        for (int i = 0; i < before.length; i++) {
            changed += before[i] != after[i] ? 1 : 0;
        }
        assertEquals(64, changed);
    }

    @Test
    void wipeKeepsOnlyMyid() throws Exception {
        file("myid", 2);
        file("log/log.1", 100);
        file("snapshots/snapshot.1", 100);
        DataFiles.wipe(data);
        try (var left = Files.walk(data)) {
            assertEquals(List.of(data, data.resolve("myid")), left.sorted().toList());
        }
    }
}

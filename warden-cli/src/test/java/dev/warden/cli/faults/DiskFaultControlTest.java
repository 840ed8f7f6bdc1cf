package dev.warden.cli.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskFaultControlTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearProperty() {
        System.clearProperty(DiskFaultControl.PROPERTY);
    }

    @Test
    void offWithoutTheProperty() throws IOException {
        assertTrue(DiskFaultControl.fromSystemProperty().isEmpty());
    }

    @Test
    void theControlFileTurnsFaultsOnAndOffWhileTheChannelsAreInUse() throws Exception {
        Path control = dir.resolve("disk-faults");
        Files.writeString(control, "full");
        System.setProperty(DiskFaultControl.PROPERTY, control.toString());
        DiskFaultControl faults = DiskFaultControl.fromSystemProperty().orElseThrow();
        try (FileChannel channel = faults.channels().open(dir.resolve("f"),
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE))) {
            IOException full = assertThrows(IOException.class, () -> channel.write(ByteBuffer.wrap(new byte[8])));
            assertTrue(full.getMessage().contains("No space left"), full.getMessage());

            Files.writeString(control, "fsync-fail");
            Files.setLastModifiedTime(control, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 1000));
            Thread.sleep(300);
            assertEquals(8, channel.write(ByteBuffer.wrap(new byte[8])));
            IOException failed = assertThrows(IOException.class, () -> channel.force(false));
            assertTrue(failed.getMessage().contains("Input/output error"), failed.getMessage());

            Files.writeString(control, "");
            Files.setLastModifiedTime(control, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 2000));
            Thread.sleep(300);
            channel.force(false);
        }
    }
}

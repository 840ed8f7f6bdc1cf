package dev.warden.server.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Records a committed configuration as ZooKeeper does, so a restarted member comes back with the
 * current membership: the member lines go to {@code <zoo.cfg>.dynamic.<version in hex>} beside
 * zoo.cfg, and zoo.cfg is rewritten to name it ({@code dynamicConfigFile=}) without the member,
 * group, weight and version lines it may have held (and without clientPort/clientPortAddress when
 * this member's own line gives its client address, as ZooKeeper erases them). Each file is
 * written to a temporary file, forced, and renamed over the old one.
 */
public final class DynamicConfigWriter {
    private DynamicConfigWriter() {
    }

    /** Writes {@code config} for the member {@code myId} whose zoo.cfg is {@code zooCfg}; returns the dynamic file. */
    public static Path write(Path zooCfg, long myId, EnsembleConfig config) throws IOException {
        Path dynamic = Path.of(zooCfg + ".dynamic." + Long.toHexString(config.version()));
        replace(dynamic, config.memberText());
        QuorumMember self = config.members().get(myId);
        boolean eraseClientAddress = self != null && self.hasClientPort();
        List<String> kept = new ArrayList<>();
        for (String line : Files.readAllLines(zooCfg, StandardCharsets.UTF_8)) {
            String key = keyOf(line);
            if (key == null || !(MemberLines.isServerKey(key) || MemberLines.isHierarchicalQuorumKey(key)
                    || key.equals(EnsembleKeys.VERSION_KEY) || key.equals(DynamicConfigFile.KEY)
                    || eraseClientAddress && (key.equals("clientPort") || key.equals("clientPortAddress")))) {
                kept.add(line);
            }
        }
        kept.add(DynamicConfigFile.KEY + "=" + dynamic.toAbsolutePath());
        replace(zooCfg, String.join("\n", kept) + "\n");
        return dynamic;
    }

    /** The key of a properties line, or null for blank lines and comments. */
    private static String keyOf(String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("!")) {
            return null;
        }
        int end = 0;
        while (end < trimmed.length() && "=: \t".indexOf(trimmed.charAt(end)) < 0) {
            end++;
        }
        return trimmed.substring(0, end).toLowerCase(Locale.ROOT).equals("dynamicconfigfile")
                ? DynamicConfigFile.KEY : trimmed.substring(0, end);
    }

    private static void replace(Path file, String content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            Files.writeString(temp, content, StandardCharsets.UTF_8);
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException notSupported) {
            // some file systems cannot force a directory; the rename is then as durable as they make it
        }
    }
}

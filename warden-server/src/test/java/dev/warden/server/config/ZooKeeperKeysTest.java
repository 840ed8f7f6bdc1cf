package dev.warden.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every setting of ZooKeeper 3.9's Administrator's Guide (and the other keys its server reads),
 * from src/test/resources/zookeeper-3.9-keys.txt, tried against the config loader as a zoo.cfg
 * key and as the system property ZooKeeper reads for it: each must work, be ignored with a
 * warning or be refused exactly as the list says, so no ZooKeeper key falls through unnoticed.
 * The table "Every ZooKeeper key and property" in docs/CONFIG.md is written from the same runs
 * ({@code -Dwarden.writeDocs=true} rewrites it).
 */
class ZooKeeperKeysTest {
    private static final Path CONFIG_DOC = Path.of("..", "docs", "CONFIG.md");
    private static final String TABLE_START = "<!-- zookeeper-keys:start (written by ZooKeeperKeysTest) -->";
    private static final String TABLE_END = "<!-- zookeeper-keys:end -->";

    @TempDir
    static Path memberDir;

    enum Kind { WORKS, WARNED, REFUSED }

    /**
     * One line of the key list. {@code changesConfig} is false for a key that works but whose
     * value to try is what Warden does anyway; {@code with} holds the settings it takes effect
     * with (secureClientPort for an ssl.* key, say), present in the base it is compared with.
     */
    record ZkKey(String key, String property, String value, Kind expected, boolean changesConfig, String context,
                 Map<String, String> with) {
        boolean ensemble() {
            return context.equals("e");
        }

        @Override
        public String toString() {
            return key;
        }
    }

    /** What the loader did with one spelling: its class, the config it built and the message it gave. */
    record Outcome(Kind kind, ServerConfig config, String message) {
    }

    @BeforeAll
    static void writeMyId() throws IOException {
        Files.writeString(memberDir.resolve("myid"), "1\n");
    }

    static List<ZkKey> zooKeeperKeys() {
        List<ZkKey> keys = new ArrayList<>();
        try (InputStream in = ZooKeeperKeysTest.class.getResourceAsStream("/zookeeper-3.9-keys.txt")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : text.lines().toList()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\|", -1);
                boolean asDefault = f[3].equals("default");
                Map<String, String> with = new LinkedHashMap<>();
                if (f.length > 5 && !f[5].isBlank()) {
                    for (String setting : f[5].split(";")) {
                        String[] kv = setting.split("=", 2);
                        with.put(kv[0].trim(), kv[1].trim());
                    }
                }
                keys.add(new ZkKey(f[0], f[1].equals("-") ? null : f[1], f[2],
                        asDefault ? Kind.WORKS : Kind.valueOf(f[3].toUpperCase(java.util.Locale.ROOT)), !asDefault,
                        f[4], with));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return keys;
    }

    static Stream<ZkKey> keys() {
        return zooKeeperKeys().stream();
    }

    @ParameterizedTest
    @MethodSource("keys")
    void inTheConfigFileEachKeyIsTreatedAsListed(ZkKey zk) {
        Outcome outcome = tryKey(zk, false);
        assertEquals(zk.expected(), outcome.kind(), zk.key() + "=" + zk.value() + ": " + outcome.message());
        if (zk.expected() == Kind.WORKS && zk.changesConfig()) {
            assertNotEquals(base(zk), outcome.config(), zk.key() + " changed nothing");
        }
    }

    @ParameterizedTest
    @MethodSource("keys")
    void asTheSystemPropertyZooKeeperReadsEachKeyIsTreatedTheSame(ZkKey zk) {
        Outcome outcome = tryKey(zk, true);
        if (readOnlyFromTheFile(zk)) {
            // ZooKeeper reads this one only from zoo.cfg; Warden says so instead of using it
            assertEquals(Kind.WARNED, outcome.kind(), outcome.message());
            assertTrue(outcome.message().contains("only from the config file"), outcome.message());
            assertEquals(base(zk), outcome.config());
            return;
        }
        assertEquals(zk.expected(), outcome.kind(), propertyOf(zk) + "=" + zk.value() + ": " + outcome.message());
        if (zk.expected() == Kind.WORKS) {
            assertEquals(tryKey(zk, false).config(), outcome.config(), propertyOf(zk) + " differs from " + zk.key());
        }
    }

    @Test
    void everyKeyFamilyWardenClassifiesIsOnTheList() {
        List<String> keys = zooKeeperKeys().stream().map(ZkKey::key).toList();
        List<String> missing = new ArrayList<>();
        for (String documented : UnimplementedZooKeeperKeys.documentedKeys()) {
            boolean family = documented.endsWith("*");
            String name = family ? documented.substring(0, documented.length() - 1) : documented;
            if (keys.stream().noneMatch(key -> family ? key.startsWith(name) : key.equals(name))) {
                missing.add(documented);
            }
        }
        assertEquals(List.of(), missing, "classified in UnimplementedZooKeeperKeys but not in zookeeper-3.9-keys.txt");
    }

    @Test
    void docsConfigHoldsTheTableWrittenFromTheseRuns() throws IOException {
        String docs = Files.readString(CONFIG_DOC, StandardCharsets.UTF_8);
        int start = docs.indexOf(TABLE_START);
        int end = docs.indexOf(TABLE_END);
        assertTrue(start >= 0 && end > start, "docs/CONFIG.md lacks the markers " + TABLE_START);
        String written = docs.substring(0, start + TABLE_START.length()) + "\n" + table() + docs.substring(end);
        if (written.equals(docs)) {
            return;
        }
        if (Boolean.getBoolean("warden.writeDocs")) {
            Files.writeString(CONFIG_DOC, written, StandardCharsets.UTF_8);
            return;
        }
        fail("docs/CONFIG.md's key table is out of date; rewrite it with: mvn -B -q -pl warden-server -am test"
                + " -Dtest=ZooKeeperKeysTest -Dsurefire.failIfNoSpecifiedTests=false -Dwarden.writeDocs=true");
    }

    private static String table() {
        StringBuilder out = new StringBuilder();
        out.append("| ZooKeeper key | system property | Warden | why, or where it is described |\n");
        out.append("|---|---|---|---|\n");
        for (ZkKey zk : zooKeeperKeys()) {
            Outcome outcome = tryKey(zk, false);
            String what = switch (outcome.kind()) {
                case WORKS -> "works";
                case WARNED -> "ignored, with a warning";
                case REFUSED -> "refused (`" + zk.key() + "=" + zk.value() + "`)";
            };
            String why = outcome.kind() != Kind.WORKS ? outcome.message().replace("|", "\\|")
                    : switch (zk.context()) {
                        case "e" -> "see [Ensembles](#ensembles)";
                        case "security" -> "see [Security](#security) and [SECURITY.md](SECURITY.md)";
                        default -> "see [Keys](#keys)";
                    };
            out.append("| `").append(zk.key()).append("` | ")
                    .append(zk.property() == null ? "none" : "`" + zk.property() + "`").append(" | ")
                    .append(what).append(" | ").append(why).append(" |\n");
        }
        return out.toString();
    }

    /**
     * Keys ZooKeeper reads only from zoo.cfg (no system property): the ones Warden implements,
     * and the member-line keys. ZooKeeper's other property-less keys reach it as zookeeper.k too.
     */
    private static boolean readOnlyFromTheFile(ZkKey zk) {
        return zk.property() == null && (zk.expected() == Kind.WORKS || MemberLines.isHierarchicalQuorumKey(zk.key()));
    }

    private static String propertyOf(ZkKey zk) {
        return zk.property() != null ? zk.property() : ZooKeeperSystemProperties.PREFIX + zk.key();
    }

    private static Properties baseProperties(ZkKey zk) {
        Properties p = new Properties();
        zk.with().forEach(p::setProperty);
        if (zk.ensemble()) {
            p.setProperty("dataDir", memberDir.toString());
            for (int id = 1; id <= 3; id++) {
                p.setProperty("server." + id, "127.0.0.1:" + (2890 + id) + ":" + (3890 + id));
            }
        }
        return p;
    }

    private static ServerConfig base(ZkKey zk) {
        return ConfigLoader.fromProperties(baseProperties(zk), new Properties(), warning -> { });
    }

    /** Loads the base configuration with the key in the file, or with its system property set. */
    private static Outcome tryKey(ZkKey zk, boolean asProperty) {
        Properties file = baseProperties(zk);
        if (asProperty) {
            file.remove(zk.key()); // a companion setting of the key itself gives way to the property
        }
        Properties jvm = new Properties();
        String name = asProperty ? propertyOf(zk) : zk.key();
        (asProperty ? jvm : file).setProperty(name, zk.value());
        List<String> warnings = new ArrayList<>();
        try {
            ServerConfig config = ConfigLoader.fromProperties(file, jvm, warnings::add);
            List<String> aboutKey = warnings.stream().filter(w -> w.contains(name)).toList();
            if (aboutKey.isEmpty()) {
                return new Outcome(Kind.WORKS, config, String.join("; ", warnings));
            }
            String warning = aboutKey.get(0);
            String prefix = "ignoring '" + name + "': ";
            return new Outcome(Kind.WARNED, config, warning.startsWith(prefix) ? capitalised(
                    warning.substring(prefix.length())) : warning);
        } catch (ConfigException refused) {
            String prefix = name + "=" + zk.value() + ": ";
            String message = refused.getMessage();
            return new Outcome(Kind.REFUSED, null, message.startsWith(prefix)
                    ? capitalised(message.substring(prefix.length())) : message);
        }
    }

    private static String capitalised(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}

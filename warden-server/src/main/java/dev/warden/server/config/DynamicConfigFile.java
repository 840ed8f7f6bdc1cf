package dev.warden.server.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * ZooKeeper 3.5+'s dynamic configuration file, named by {@code dynamicConfigFile} in zoo.cfg:
 * the member lines ({@code server.N}, and {@code group.N}/{@code weight.N} for a hierarchical quorum), in {@code java.util.Properties} syntax
 * (read as UTF-8, like zoo.cfg). Its version is not written inside it but in its name: the
 * hexadecimal after the last '.', so {@code zoo.cfg.dynamic.100000000} is version 0x100000000,
 * and a name without such a suffix is version 0.
 *
 * @param file        the file as named in zoo.cfg (a relative path resolves against the working directory)
 * @param memberLines its server.N lines, unparsed
 * @param version     the configuration version from the file name
 */
record DynamicConfigFile(Path file, Properties memberLines, long version) {
    static final String KEY = "dynamicConfigFile";
    /** ZooKeeper writes {@code <zoo.cfg>.dynamic.next} while a reconfiguration is under way. */
    static final String NEXT_SUFFIX = ".dynamic.next";
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

    /** Reads the file {@code dynamicConfigFile=value} names; anything but server.N lines is refused. */
    static DynamicConfigFile read(String value) {
        if (value.isEmpty()) {
            throw ConfigException.invalid(KEY, value, "must be the path of the dynamic configuration file");
        }
        Path file;
        try {
            file = Path.of(value);
        } catch (InvalidPathException bad) {
            throw ConfigException.invalid(KEY, value, "must be a file path (" + bad.getReason() + ")");
        }
        Properties lines = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            lines.load(reader);
        } catch (NoSuchFileException missing) {
            throw new ConfigException(KEY, KEY + "=" + value + ": " + file + " does not exist", missing);
        } catch (IOException | IllegalArgumentException unreadable) {
            // IllegalArgumentException: a malformed \\uXXXX escape in the file
            throw new ConfigException(KEY, "cannot read " + KEY + " " + file + ": " + unreadable, unreadable);
        }
        String where = KEY + " " + file;
        for (String key : new TreeSet<>(lines.stringPropertyNames())) {
            if (MemberLines.isHierarchicalQuorumKey(key)) {
                continue; // group.N and weight.N belong with the member lines
            }
            if (key.equals("version")) {
                throw new ConfigException(key, where + " holds a version line: the version of a dynamic config"
                        + " file is the hexadecimal at the end of its name (as in ZooKeeper), so remove the line");
            }
            if (!MemberLines.isServerKey(key)) {
                throw new ConfigException(key, where + " holds '" + key + "': a dynamic config file holds only"
                        + " server.N, group.N and weight.N lines; put other settings in zoo.cfg");
            }
        }
        return new DynamicConfigFile(file, lines, versionFromFileName(file));
    }

    /**
     * The version ZooKeeper reads from a dynamic config file's name: the text after the last '.'
     * as hexadecimal, or 0 when there is no dot or that text is not a hexadecimal long.
     */
    static long versionFromFileName(Path file) {
        Path name = file.getFileName();
        String text = name == null ? "" : name.toString();
        String suffix = text.substring(text.lastIndexOf('.') + 1);
        if (text.indexOf('.') < 0 || !HEX.matcher(suffix).matches()) {
            return 0;
        }
        try {
            return Long.parseLong(suffix, 16);
        } catch (NumberFormatException tooLarge) {
            return 0;
        }
    }

    /**
     * Refuses to start while {@code <zooCfg>.dynamic.next} exists: ZooKeeper left a
     * reconfiguration half done. Warden never writes that file (a change in progress is in its
     * log), and could only guess which member list the ensemble ends up with.
     */
    static void refuseReconfigurationInProgress(Path zooCfg, String dynamicConfigFile) {
        Path next = Path.of(zooCfg.toString() + NEXT_SUFFIX);
        if (Files.exists(next)) {
            throw new ConfigException(KEY, next + " exists: ZooKeeper writes it while a reconfiguration is in"
                    + " progress, and Warden cannot complete ZooKeeper's (it keeps a change in progress in its log)."
                    + " Finish the reconfiguration with ZooKeeper, or delete " + next + " if " + dynamicConfigFile
                    + " holds the member list every member agrees on.");
        }
    }
}

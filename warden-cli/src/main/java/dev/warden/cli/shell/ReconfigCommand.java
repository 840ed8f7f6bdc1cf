package dev.warden.cli.shell;

import dev.warden.client.DataAndStat;
import dev.warden.client.WardenAdmin;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * zkCli's {@code reconfig}: changes the ensemble's members through the {@code reconfig} request.
 * {@code -add} (server lines) and {@code -remove} (ids) change them incrementally; {@code -members}
 * (server lines) or {@code -file} (a dynamic configuration file's server, group and weight lines)
 * give the whole new list; {@code -v} the configuration version (hexadecimal, as /zookeeper/config
 * shows it) the change applies to; {@code -s} prints the new configuration's stat. Options are
 * read as zkCli reads them, values lower-cased, and the same mistakes refused with its words.
 */
final class ReconfigCommand {
    static final String USAGE = "reconfig [-s] [-v version] [[-file path] | [-members serverID=host:port1:port2;port3[,...]*]]"
            + " | [-add serverId=host:port1:port2;port3[,...]]* [-remove serverId[,...]*]";

    private ReconfigCommand() {
    }

    static void register(CommandTable table) {
        table.add(CommandDef.parsingOwnOptions("reconfig", USAGE, ReconfigCommand::run));
    }

    /** What the words ask for: the request's three lists and version, and whether to print the stat. */
    record Parsed(String joining, String leaving, String members, long fromConfig, boolean printStat) {
    }

    private static void run(ParsedArgs args, ShellSession session) {
        Parsed parsed = parse(args.positional());
        WardenAdmin admin = session.client().async().admin();
        DataAndStat answer = session.client().await(parsed.members() != null
                ? admin.reconfigureMembers(List.of(parsed.members().split(",")), parsed.fromConfig())
                : admin.reconfigure(listOf(parsed.joining()), listOf(parsed.leaving()), parsed.fromConfig()));
        session.out().println("Committed new configuration:\n" + new String(answer.data(), StandardCharsets.UTF_8));
        if (parsed.printStat()) {
            Formats.printStat(session.out(), answer.stat());
        }
    }

    private static List<String> listOf(String commaSeparated) {
        return commaSeparated == null ? List.of() : List.of(commaSeparated.split(","));
    }

    static Parsed parse(List<String> words) {
        boolean printStat = false;
        String version = null;
        String file = null;
        String members = null;
        String joining = null;
        String leaving = null;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            switch (word) {
                case "-s" -> printStat = true;
                case "-v", "-file", "-members", "-add", "-remove" -> {
                    if (i + 1 == words.size()) {
                        throw new ShellException("Missing argument for option: " + word.substring(1), USAGE);
                    }
                    String value = words.get(++i);
                    switch (word) {
                        case "-v" -> version = value;
                        case "-file" -> file = value;
                        case "-members" -> members = value.toLowerCase(Locale.ROOT);
                        case "-add" -> joining = value.toLowerCase(Locale.ROOT);
                        default -> leaving = value.toLowerCase(Locale.ROOT);
                    }
                }
                default -> throw new ShellException(word.startsWith("-") ? "Unrecognized option: " + word
                        : "Unexpected argument: " + word, USAGE);
            }
        }
        if (file == null && members == null && joining == null && leaving == null) {
            throw new ShellException("one of -add, -remove, -members and -file is needed", USAGE);
        }
        long fromConfig = -1;
        if (version != null) {
            try {
                fromConfig = Long.parseLong(version, 16);
            } catch (NumberFormatException e) {
                throw new ShellException("-v must be followed by a long (configuration version)", USAGE);
            }
        }
        if ((file != null || members != null) && (joining != null || leaving != null)) {
            throw new ShellException("Can't use -file or -members together with -add or -remove (mixing incremental"
                    + " and non-incremental modes is not allowed)", USAGE);
        }
        if (file != null && members != null) {
            throw new ShellException("Can't use -file and -members together (conflicting non-incremental modes)", USAGE);
        }
        if (file != null) {
            members = membersOfFile(Path.of(file));
        }
        return new Parsed(joining, leaving, members, fromConfig, printStat);
    }

    /**
     * The member lines of a dynamic configuration file ({@code server.N}, {@code group.N},
     * {@code weight.N}), comma-separated as {@code -members} takes them; its {@code version} line
     * is left out (the server gives the new configuration its own).
     */
    static String membersOfFile(Path file) {
        Properties lines = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            lines.load(reader);
        } catch (IOException e) {
            throw new ShellException("Error processing " + file + ": " + e.getMessage(), USAGE);
        }
        List<String> members = new ArrayList<>();
        for (String key : new java.util.TreeSet<>(lines.stringPropertyNames())) {
            if (key.startsWith("server.") || key.startsWith("group.") || key.startsWith("weight.")) {
                members.add(key + "=" + lines.getProperty(key).trim());
            } else if (!key.equals("version")) {
                throw new ShellException("Error processing " + file + ": '" + key + "' is not a member line (a"
                        + " dynamic configuration file holds only server.N, group.N and weight.N lines)", USAGE);
            }
        }
        if (members.stream().noneMatch(line -> line.startsWith("server."))) {
            throw new ShellException("Error processing " + file + ": it has no server.N line", USAGE);
        }
        return String.join(",", members);
    }
}

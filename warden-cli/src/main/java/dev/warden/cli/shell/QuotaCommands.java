package dev.warden.cli.shell;

import dev.warden.client.BlockingClient;
import dev.warden.client.WardenException;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.QuotaText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * zkCli's quota commands: setquota, listquota, delquota. A quota on path P is the node
 * /zookeeper/quota/P/zookeeper_limits ("count=N,bytes=M" and the hard limits after them); the
 * server keeps /zookeeper/quota/P/zookeeper_stats up to date and, with enforceQuota=true,
 * refuses writes past a hard limit with QUOTAEXCEEDED.
 */
final class QuotaCommands {
    static final String QUOTA_ROOT = "/zookeeper/quota";
    static final String LIMITS = "zookeeper_limits";
    static final String STATS = "zookeeper_stats";
    private static final String SET_USAGE = "setquota -n|-b|-N|-B val path";
    private static final String DEL_USAGE = "delquota [-n|-b|-N|-B] path";

    private QuotaCommands() {
    }

    static void register(CommandTable table) {
        table.add(new CommandDef("setquota", "", "nbNB", 1, 1, SET_USAGE, QuotaCommands::setQuota));
        table.add(new CommandDef("listquota", "", "", 1, 1, "listquota path", QuotaCommands::listQuota));
        table.add(new CommandDef("delquota", "nbNB", "", 1, 1, DEL_USAGE, QuotaCommands::delQuota));
    }

    private static void setQuota(ParsedArgs args, ShellSession session) {
        String path = args.arg(0);
        Map<String, Long> wanted = new LinkedHashMap<>();
        option(args, 'n', "count", 1, wanted);
        option(args, 'b', "bytes", 0, wanted);
        option(args, 'N', "countHardLimit", 1, wanted);
        option(args, 'B', "byteHardLimit", 0, wanted);
        if (wanted.isEmpty()) {
            throw new ShellException("one of -n, -b, -N, -B is needed", SET_USAGE);
        }
        BlockingClient client = session.client();
        if (client.exists(path).isEmpty()) {
            throw new ShellException(path + " does not exist.");
        }
        String quotaDir = quotaDir(path);
        if (client.exists(quotaDir).isPresent()) {
            for (String child : client.getChildren(quotaDir)) {
                if (!child.startsWith("zookeeper_")) {
                    throw new ShellException(path + " has a child " + quotaDir + "/" + child + " which has a quota");
                }
            }
        }
        String ancestor = QUOTA_ROOT;
        for (String part : path.substring(1).split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            ancestor += "/" + part;
            if (ancestor.equals(quotaDir)) {
                break;
            }
            if (client.exists(ancestor + "/" + LIMITS).isPresent()) {
                throw new ShellException(path + " has a parent " + ancestor + " which has a quota");
            }
        }
        createParents(client, quotaDir);
        String limitsPath = quotaDir + "/" + LIMITS;
        if (client.exists(limitsPath).isEmpty()) {
            Map<String, Long> limits = new LinkedHashMap<>();
            limits.put("count", -1L);
            limits.put("bytes", -1L);
            limits.putAll(wanted);
            client.create(limitsPath, QuotaText.format(limits), CreateMode.PERSISTENT);
            Map<String, Long> stats = new LinkedHashMap<>();
            stats.put("count", 0L);
            stats.put("bytes", 0L);
            client.create(quotaDir + "/" + STATS, QuotaText.format(stats), CreateMode.PERSISTENT);
        } else {
            Map<String, Long> limits = QuotaText.parse(client.getData(limitsPath).data());
            limits.putAll(wanted);
            client.setData(limitsPath, QuotaText.format(limits));
        }
    }

    private static void listQuota(ParsedArgs args, ShellSession session) {
        String path = args.arg(0);
        String limitsPath = quotaDir(path) + "/" + LIMITS;
        BlockingClient client = session.client();
        session.out().println("absolute path is " + limitsPath);
        try {
            String limits = new String(client.getData(limitsPath).data(), StandardCharsets.UTF_8);
            session.out().println("Output quota for " + path + " " + new String(QuotaText.format(QuotaText.parse(limits.getBytes(
                    StandardCharsets.UTF_8))), StandardCharsets.UTF_8));
            Optional<byte[]> stats = readIfThere(client, quotaDir(path) + "/" + STATS);
            stats.ifPresent(data -> session.out().println("Output stat for " + path + " "
                    + new String(QuotaText.format(QuotaText.parse(data)), StandardCharsets.UTF_8)));
        } catch (WardenException.NoNodeException e) {
            throw new ShellException("quota for " + path + " does not exist.");
        }
    }

    private static void delQuota(ParsedArgs args, ShellSession session) {
        String path = args.arg(0);
        BlockingClient client = session.client();
        String quotaDir = quotaDir(path);
        String limitsPath = quotaDir + "/" + LIMITS;
        if (client.exists(limitsPath).isEmpty()) {
            throw new ShellException("Quota does not exist for " + path);
        }
        List<String> cleared = new ArrayList<>();
        for (char letter : new char[] {'n', 'b', 'N', 'B'}) {
            if (args.has(letter)) {
                cleared.add(switch (letter) {
                    case 'n' -> "count";
                    case 'b' -> "bytes";
                    case 'N' -> "countHardLimit";
                    default -> "byteHardLimit";
                });
            }
        }
        if (cleared.isEmpty()) {
            // the whole quota, and the quota directories it leaves empty
            for (String child : client.getChildren(quotaDir)) {
                client.delete(quotaDir + "/" + child);
            }
            String dir = quotaDir;
            while (!dir.equals(QUOTA_ROOT) && client.getChildren(dir).isEmpty()) {
                client.delete(dir);
                dir = dir.substring(0, dir.lastIndexOf('/'));
            }
            return;
        }
        Map<String, Long> limits = QuotaText.parse(client.getData(limitsPath).data());
        cleared.forEach(key -> limits.put(key, -1L));
        client.setData(limitsPath, QuotaText.format(limits));
    }

    private static void option(ParsedArgs args, char letter, String key, long minimum, Map<String, Long> into) {
        String text = args.value(letter);
        if (text == null) {
            return;
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ShellException("-" + letter + " needs a number: " + text, SET_USAGE);
        }
        if (value < minimum) {
            throw new ShellException("-" + letter + " must be " + (minimum == 0 ? "at least 0" : "greater than zero")
                    + ": " + text, SET_USAGE);
        }
        into.put(key, value);
    }

    private static void createParents(BlockingClient client, String path) {
        String current = "";
        for (String part : path.substring(1).split("/")) {
            current += "/" + part;
            if (client.exists(current).isEmpty()) {
                try {
                    client.create(current, new byte[0], CreateMode.PERSISTENT);
                } catch (WardenException.NodeExistsException raced) {
                    // created meanwhile: fine
                }
            }
        }
    }

    private static Optional<byte[]> readIfThere(BlockingClient client, String path) {
        try {
            return Optional.ofNullable(client.getData(path).data());
        } catch (WardenException.NoNodeException e) {
            return Optional.empty();
        }
    }

    static String quotaDir(String path) {
        return path.equals("/") ? QUOTA_ROOT : QUOTA_ROOT + path;
    }
}

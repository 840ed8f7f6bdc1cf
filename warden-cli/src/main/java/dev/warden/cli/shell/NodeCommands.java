package dev.warden.cli.shell;

import dev.warden.client.BlockingClient;
import dev.warden.client.ChildrenAndStat;
import dev.warden.client.DataAndStat;
import dev.warden.client.WardenException;
import dev.warden.protocol.Stat;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The commands that read and write znodes: ls, get, set, create, delete, deleteall, stat, sync, getAllChildrenNumber. */
final class NodeCommands {
    private NodeCommands() {
    }

    static void register(CommandTable table) {
        table.add(new CommandDef("ls", "swR", "", 1, 1, "ls [-s] [-w] [-R] path", NodeCommands::ls));
        table.add(new CommandDef("get", "sw", "", 1, 1, "get [-s] [-w] path", NodeCommands::get));
        table.add(new CommandDef("set", "s", "v", 2, 2, "set [-s] [-v version] path data", NodeCommands::set));
        table.add(new CommandDef("create", "sec", "t", 1, 3, "create [-s] [-e] [-c] [-t ttl] path [data] [acl]",
                CreateCommand::run));
        table.add(new CommandDef("delete", "", "v", 1, 1, "delete [-v version] path", NodeCommands::delete));
        table.add(new CommandDef("deleteall", "", "b", 1, 1, "deleteall path [-b batch size]", NodeCommands::deleteAll));
        table.add(new CommandDef("stat", "w", "", 1, 1, "stat [-w] path", NodeCommands::stat));
        table.add(new CommandDef("sync", "", "", 1, 1, "sync path", NodeCommands::sync));
        table.add(new CommandDef("getAllChildrenNumber", "", "", 1, 1, "getAllChildrenNumber path",
                (args, session) -> session.out().println(session.client().getAllChildrenNumber(args.arg(0)))));
    }

    private static void ls(ParsedArgs args, ShellSession session) {
        String path = args.arg(0);
        PrintStream out = session.out();
        if (args.has('R')) {
            for (String node : Subtree.preOrder(session.client(), path)) {
                out.println(node);
            }
            return;
        }
        ChildrenAndStat result = session.client().getChildrenAndStat(path, args.has('w') ? session.printingWatcher() : null);
        List<String> children = new ArrayList<>(result.children());
        children.sort(null);
        out.println(children);
        if (args.has('s')) {
            Formats.printStat(out, result.stat());
        }
    }

    private static void get(ParsedArgs args, ShellSession session) {
        DataAndStat result = session.client().getData(args.arg(0), args.has('w') ? session.printingWatcher() : null);
        PrintStream out = session.out();
        out.println(result.data() == null ? "null" : new String(result.data(), StandardCharsets.UTF_8));
        if (args.has('s')) {
            Formats.printStat(out, result.stat());
        }
    }

    private static void set(ParsedArgs args, ShellSession session) {
        int version = versionOption(args);
        Stat stat = session.client().setData(args.arg(0), args.arg(1).getBytes(StandardCharsets.UTF_8), version);
        if (args.has('s')) {
            Formats.printStat(session.out(), stat);
        }
    }

    private static void delete(ParsedArgs args, ShellSession session) {
        session.client().delete(args.arg(0), versionOption(args));
    }

    /**
     * Deletes leaves first; a node that vanished meanwhile (someone else deleted it) is fine. With
     * {@code -b N}, as zkCli's, the deletes go in multi requests of up to N (fewer round trips); a
     * batch that fails because one of its nodes is gone is retried one by one.
     */
    private static void deleteAll(ParsedArgs args, ShellSession session) {
        BlockingClient client = session.client();
        int batch = batchOption(args);
        List<String> nodes = Subtree.preOrder(client, args.arg(0));
        List<String> pending = new java.util.ArrayList<>();
        for (int i = nodes.size() - 1; i >= 0; i--) {
            String node = nodes.get(i);
            if (node.equals("/")) {
                continue; // the root cannot be deleted; deleteall / empties the tree instead
            }
            pending.add(node);
            if (pending.size() == batch) {
                deleteBatch(client, pending);
                pending.clear();
            }
        }
        deleteBatch(client, pending);
    }

    private static void deleteBatch(BlockingClient client, List<String> nodes) {
        if (nodes.size() > 1) {
            dev.warden.client.Transaction multi = client.async().transaction();
            nodes.forEach(node -> multi.delete(node, -1));
            try {
                client.commit(multi);
                return;
            } catch (WardenException.NoNodeException | WardenException.NotEmptyException raced) {
                // someone changed the subtree meanwhile: fall back to one by one
            }
        }
        for (String node : nodes) {
            try {
                client.delete(node);
            } catch (WardenException.NoNodeException e) {
                // already gone
            }
        }
    }

    private static int batchOption(ParsedArgs args) {
        String text = args.value('b');
        if (text == null) {
            return 1;
        }
        try {
            int batch = Integer.parseInt(text);
            if (batch > 0) {
                return batch;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ShellException("batch size must be a positive integer: " + text, "deleteall path [-b batch size]");
    }

    private static void stat(ParsedArgs args, ShellSession session) {
        String path = args.arg(0);
        Optional<Stat> stat = session.client().exists(path, args.has('w') ? session.printingWatcher() : null);
        if (stat.isEmpty()) {
            // zkCli reports a missing node as an error; with -w the exists watch stays set
            throw new WardenException.NoNodeException(path, -1);
        }
        Formats.printStat(session.out(), stat.get());
    }

    private static void sync(ParsedArgs args, ShellSession session) {
        session.client().sync(args.arg(0));
        session.out().println("Sync is OK");
    }

    /** The {@code -v} option as a version number, or -1 (any version) when absent. */
    static int versionOption(ParsedArgs args) {
        String text = args.value('v');
        if (text == null) {
            return -1;
        }
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ShellException("Version must be an integer: " + text);
        }
    }
}

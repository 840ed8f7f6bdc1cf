package dev.warden.cli.shell;

import dev.warden.client.WatchKind;
import dev.warden.client.WatchMode;
import java.util.ArrayList;
import java.util.List;

/** addWatch, removewatches and getEphemerals. */
final class WatchCommands {
    private WatchCommands() {
    }

    static void register(CommandTable table) {
        table.add(new CommandDef("addWatch", "", "m", 1, 1, "addWatch [-m mode] path  (mode: PERSISTENT or PERSISTENT_RECURSIVE)",
                WatchCommands::addWatch));
        table.add(new CommandDef("removewatches", "cdal", "", 1, 1, "removewatches path [-c|-d|-a] [-l]",
                WatchCommands::removeWatches));
        table.add(new CommandDef("getEphemerals", "", "", 0, 1, "getEphemerals [path]", WatchCommands::getEphemerals));
    }

    /** zkCli's default mode is recursive, the more common need. */
    private static void addWatch(ParsedArgs args, ShellSession session) {
        String modeText = args.value('m');
        WatchMode mode;
        if (modeText == null || modeText.equals("PERSISTENT_RECURSIVE")) {
            mode = WatchMode.PERSISTENT_RECURSIVE;
        } else if (modeText.equals("PERSISTENT")) {
            mode = WatchMode.PERSISTENT;
        } else {
            throw new ShellException("Unsupported mode: " + modeText + " (use PERSISTENT or PERSISTENT_RECURSIVE)");
        }
        // The handle is not kept: removewatches removes the watch by path, as in zkCli.
        session.client().addWatch(args.arg(0), mode, session.printingWatcher());
    }

    /**
     * -c child watches, -d data watches, -a (the default) all of them. -l (remove locally when
     * the server cannot be reached) is accepted for zkCli compatibility but the removal always
     * goes through the server: the client removes its local watchers only once the server agrees.
     */
    private static void removeWatches(ParsedArgs args, ShellSession session) {
        int kinds = (args.has('c') ? 1 : 0) + (args.has('d') ? 1 : 0) + (args.has('a') ? 1 : 0);
        if (kinds > 1) {
            throw new ShellException("Only one of -c, -d and -a may be given", "removewatches path [-c|-d|-a] [-l]");
        }
        WatchKind kind = args.has('c') ? WatchKind.CHILDREN : args.has('d') ? WatchKind.DATA : WatchKind.ANY;
        session.client().removeWatches(args.arg(0), kind);
    }

    private static void getEphemerals(ParsedArgs args, ShellSession session) {
        String prefix = args.count() == 0 ? "/" : args.arg(0);
        List<String> ephemerals = new ArrayList<>(session.client().getEphemerals(prefix));
        ephemerals.sort(null);
        session.out().println(ephemerals);
    }
}

package dev.warden.cli.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What tab completes: command names in the first word, znode paths in later words that start
 * with a slash. Paths come from the server: the children of the typed prefix's parent.
 */
final class ShellCompleter {
    private final CommandTable commands;
    private final ShellSession session;

    ShellCompleter(CommandTable commands, ShellSession session) {
        this.commands = commands;
        this.session = session;
    }

    /**
     * @param wordIndex index of the word being completed (0 is the command name)
     * @param partial   that word up to the cursor
     * @return full replacements for the word, sorted
     */
    List<Completion> complete(int wordIndex, String partial) {
        if (wordIndex == 0) {
            return commandNames(partial);
        }
        if (partial.startsWith("/")) {
            return paths(partial);
        }
        return List.of();
    }

    private List<Completion> commandNames(String partial) {
        List<Completion> out = new ArrayList<>();
        for (CommandDef command : commands.all()) {
            if (command.name().toLowerCase(Locale.ROOT).startsWith(partial.toLowerCase(Locale.ROOT))) {
                out.add(new Completion(command.name(), true));
            }
        }
        return out;
    }

    private List<Completion> paths(String partial) {
        int lastSlash = partial.lastIndexOf('/');
        String parent = lastSlash == 0 ? "/" : partial.substring(0, lastSlash);
        String namePrefix = partial.substring(lastSlash + 1);
        List<String> children = new ArrayList<>(session.childrenForCompletion(parent));
        children.sort(null);
        List<Completion> out = new ArrayList<>();
        for (String child : children) {
            if (child.startsWith(namePrefix)) {
                // Not final: the user may want to go on into the node's children.
                out.add(new Completion(partial.substring(0, lastSlash + 1) + child, false));
            }
        }
        return out;
    }

    /** One candidate; {@code complete} means the word is finished and a space may follow. */
    record Completion(String value, boolean complete) {
    }
}

package dev.warden.cli.shell;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** The shell's commands by name (sorted, for help and completion). */
final class CommandTable {
    private final Map<String, CommandDef> byName = new TreeMap<>();

    void add(CommandDef command) {
        if (byName.putIfAbsent(command.name(), command) != null) {
            throw new IllegalStateException("command registered twice: " + command.name());
        }
    }

    CommandDef find(String name) {
        return byName.get(name);
    }

    Collection<CommandDef> all() {
        return Collections.unmodifiableCollection(byName.values());
    }
}

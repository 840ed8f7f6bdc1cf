package dev.warden.cli.shell;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The words after a command name, split into single-letter options and positional arguments.
 * Options may appear anywhere (zkCli accepts {@code removewatches /a -d}); {@code --} ends
 * them, so data that starts with a dash can still be given ({@code set /a -- -1}).
 */
final class ParsedArgs {
    private final Set<Character> flags;
    private final Map<Character, String> values;
    private final List<String> positional;

    private ParsedArgs(Set<Character> flags, Map<Character, String> values, List<String> positional) {
        this.flags = flags;
        this.values = values;
        this.positional = positional;
    }

    /**
     * @param flagLetters   options that take no value, e.g. {@code "swR"}
     * @param valuedLetters options followed by a value, e.g. {@code "v"}
     */
    static ParsedArgs parse(List<String> words, String flagLetters, String valuedLetters, String usage) {
        Set<Character> flags = new HashSet<>();
        Map<Character, String> values = new HashMap<>();
        List<String> positional = new ArrayList<>();
        boolean optionsEnded = false;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (optionsEnded || !looksLikeOption(word)) {
                positional.add(word);
            } else if (word.equals("--")) {
                optionsEnded = true;
            } else if (word.length() == 2 && flagLetters.indexOf(word.charAt(1)) >= 0) {
                flags.add(word.charAt(1));
            } else if (word.length() == 2 && valuedLetters.indexOf(word.charAt(1)) >= 0) {
                if (i + 1 == words.size()) {
                    throw new ShellException("Missing argument for option: " + word.charAt(1), usage);
                }
                values.put(word.charAt(1), words.get(++i));
            } else {
                throw new ShellException("Unrecognized option: " + word, usage);
            }
        }
        return new ParsedArgs(flags, values, positional);
    }

    /** Every word as a positional argument, options included, for a command that reads them itself. */
    static ParsedArgs words(List<String> words) {
        return new ParsedArgs(Set.of(), Map.of(), List.copyOf(words));
    }

    /** A dash followed by something that is not a number ("-1" is data, not an option). */
    private static boolean looksLikeOption(String word) {
        return word.length() > 1 && word.charAt(0) == '-' && !Character.isDigit(word.charAt(1));
    }

    boolean has(char flag) {
        return flags.contains(flag) || values.containsKey(flag);
    }

    String value(char option) {
        return values.get(option);
    }

    List<String> positional() {
        return positional;
    }

    String arg(int index) {
        return positional.get(index);
    }

    int count() {
        return positional.size();
    }
}

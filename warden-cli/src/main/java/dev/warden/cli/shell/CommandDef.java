package dev.warden.cli.shell;

/**
 * One shell command: its name, its options, how many positional arguments it takes and what
 * it does.
 *
 * @param flagLetters   options without a value ("swR" for {@code -s -w -R})
 * @param valuedLetters options followed by a value ("v" for {@code -v version})
 */
record CommandDef(String name, String flagLetters, String valuedLetters, int minArgs, int maxArgs, String usage,
                  Action action, boolean parsesOwnOptions) {

    CommandDef(String name, String flagLetters, String valuedLetters, int minArgs, int maxArgs, String usage,
               Action action) {
        this(name, flagLetters, valuedLetters, minArgs, maxArgs, usage, action, false);
    }

    /**
     * A command that reads its words itself (zkCli's {@code reconfig} has options of several
     * letters, {@code -add}, {@code -members}): every word reaches it as a positional argument.
     */
    static CommandDef parsingOwnOptions(String name, String usage, Action action) {
        return new CommandDef(name, "", "", 0, Integer.MAX_VALUE, usage, action, true);
    }

    /** The body of a command; throws {@link ShellException} or a client exception on failure. */
    @FunctionalInterface
    interface Action {
        void run(ParsedArgs args, ShellSession session);
    }

    /** Parses the words after the name, checking options and argument count against the usage. */
    ParsedArgs parse(java.util.List<String> words) {
        if (parsesOwnOptions) {
            return ParsedArgs.words(words);
        }
        ParsedArgs args = ParsedArgs.parse(words, flagLetters, valuedLetters, usage);
        if (args.count() < minArgs || args.count() > maxArgs) {
            throw new ShellException(args.count() < minArgs ? "Missing arguments" : "Too many arguments", usage);
        }
        return args;
    }
}

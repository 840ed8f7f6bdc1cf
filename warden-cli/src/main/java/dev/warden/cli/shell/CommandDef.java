package dev.warden.cli.shell;

/**
 * One shell command: its name, its options, how many positional arguments it takes and what
 * it does.
 *
 * @param flagLetters   options without a value ("swR" for {@code -s -w -R})
 * @param valuedLetters options followed by a value ("v" for {@code -v version})
 */
record CommandDef(String name, String flagLetters, String valuedLetters, int minArgs, int maxArgs, String usage,
                  Action action) {

    /** The body of a command; throws {@link ShellException} or a client exception on failure. */
    @FunctionalInterface
    interface Action {
        void run(ParsedArgs args, ShellSession session);
    }

    /** Parses the words after the name, checking options and argument count against the usage. */
    ParsedArgs parse(java.util.List<String> words) {
        ParsedArgs args = ParsedArgs.parse(words, flagLetters, valuedLetters, usage);
        if (args.count() < minArgs || args.count() > maxArgs) {
            throw new ShellException(args.count() < minArgs ? "Missing arguments" : "Too many arguments", usage);
        }
        return args;
    }
}

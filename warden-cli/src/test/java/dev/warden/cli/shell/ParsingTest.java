package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.NotEmpty;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Splitting lines into words and words into options and arguments. */
class ParsingTest {
    @Test
    void splitsOnWhitespaceAndKeepsQuotedWordsTogether() {
        assertEquals(List.of("set", "/a", "two words", "it's"), Tokenizer.split("  set\t/a \"two words\" \"it's\"  "));
        assertEquals(List.of("create", "/a", ""), Tokenizer.split("create /a ''"));
        assertEquals(List.of("get", "/a\"b"), Tokenizer.split("get '/a\"b'"));
        assertEquals(List.of(), Tokenizer.split("   "));
    }

    @Test
    void unbalancedQuoteIsAnError() {
        ShellException e = assertThrows(ShellException.class, () -> Tokenizer.split("set /a 'oops"));
        assertTrue(e.getMessage().startsWith("Unbalanced quote '"), e.getMessage());
    }

    @Property
    void wordsWithoutQuotesOrSpacesSurviveJoinAndSplit(@ForAll @Size(min = 1, max = 8) List<@NotEmpty @AlphaChars String> words) {
        assertEquals(words, Tokenizer.split(String.join("  ", words)));
    }

    @Property
    void quotingAnyWordWithoutSingleQuotesKeepsItWhole(@ForAll String word) {
        if (word.indexOf('\'') >= 0) {
            return;
        }
        assertEquals(List.of("set", word), Tokenizer.split("set '" + word + "'"));
    }

    @Test
    void optionsMayAppearAnywhereAndValuedOptionsTakeTheNextWord() {
        ParsedArgs args = ParsedArgs.parse(List.of("/a", "-s", "-v", "3", "data"), "s", "v", "usage");
        assertTrue(args.has('s'));
        assertFalse(args.has('w'));
        assertEquals("3", args.value('v'));
        assertEquals(List.of("/a", "data"), args.positional());
    }

    @Test
    void negativeNumbersAndWordsAfterDoubleDashArePositional() {
        ParsedArgs args = ParsedArgs.parse(List.of("/a", "-1", "--", "-s"), "s", "", "usage");
        assertFalse(args.has('s'));
        assertEquals(List.of("/a", "-1", "-s"), args.positional());
    }

    @Test
    void unknownOptionsAndMissingValuesCarryTheUsage() {
        ShellException unknown = assertThrows(ShellException.class, () -> ParsedArgs.parse(List.of("-q", "/"), "s", "", "ls path"));
        assertEquals("Unrecognized option: -q", unknown.getMessage());
        assertEquals("ls path", unknown.usage());
        ShellException missing = assertThrows(ShellException.class, () -> ParsedArgs.parse(List.of("/", "-v"), "", "v", "u"));
        assertEquals("Missing argument for option: v", missing.getMessage());
    }

    @Test
    void commandDefChecksArgumentCount() {
        CommandDef def = new CommandDef("x", "", "", 1, 2, "x a [b]", (args, session) -> { });
        assertEquals(2, def.parse(List.of("a", "b")).count());
        assertEquals("Missing arguments", assertThrows(ShellException.class, () -> def.parse(List.of())).getMessage());
        assertEquals("Too many arguments", assertThrows(ShellException.class, () -> def.parse(List.of("a", "b", "c"))).getMessage());
    }
}

package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.Main;
import dev.warden.cli.ServerLauncher;
import dev.warden.cli.StopSignal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The parts for a person at a terminal: completion, prompt, history file, events above the prompt. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InteractiveTest {
    private ServerFixture server;

    @BeforeAll
    void start(@TempDir Path dataDir) throws IOException {
        server = new ServerFixture(dataDir);
        assertEquals(0, server.script("create /cm\ncreate /cm/alpha\ncreate /cm/alps\ncreate /cm/beta\n").exitCode());
    }

    @AfterAll
    void stop() {
        server.close();
    }

    private static List<String> values(List<ShellCompleter.Completion> completions) {
        return completions.stream().map(ShellCompleter.Completion::value).toList();
    }

    @Test
    void completesCommandNamesAndZnodePathsFromTheServer() {
        try (ShellSession session = new ShellSession(new PrintStream(new ByteArrayOutputStream()), 10_000, ShellClientConfig.PLAINTEXT)) {
            Shell shell = new Shell(session, new PrintStream(new ByteArrayOutputStream()));
            ShellCompleter completer = new ShellCompleter(shell.commands(), session);
            assertEquals(List.of(), values(completer.complete(1, "/")), "not connected yet: nothing to offer");

            session.connect(server.connectString());
            assertEquals(List.of("get", "getAcl", "getAllChildrenNumber", "getEphemerals"), values(completer.complete(0, "get")));
            assertEquals(List.of("/cm/alpha", "/cm/alps"), values(completer.complete(1, "/cm/al")));
            assertEquals(List.of("/cm/alpha", "/cm/alps", "/cm/beta"), values(completer.complete(2, "/cm/")));
            assertTrue(values(completer.complete(1, "/c")).contains("/cm"));
            assertEquals(List.of(), values(completer.complete(1, "/missing/x")));
            assertEquals(List.of(), values(completer.complete(1, "data")));
            assertTrue(completer.complete(0, "ls").get(0).complete());
            assertTrue(!completer.complete(1, "/cm/b").get(0).complete(), "a path may be continued into its children");
        }
    }

    @Test
    void consoleRunsLinesShowsPromptKeepsHistoryAndPrintsEventsAbove(@TempDir Path home) throws IOException {
        Path historyFile = home.resolve(".warden_history");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        String typed = "create /inter one\nget -w /inter\nset /inter two\nget /nothing\nquit\nls /\n";
        PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        ShellIo io = new ShellIo(new ByteArrayInputStream(new byte[0]), outStream,
                new PrintStream(err, true, StandardCharsets.UTF_8), true, historyFile);
        int exitCode;
        try (ShellSession session = new ShellSession(outStream, 10_000, ShellClientConfig.PLAINTEXT);
             Terminal terminal = new ExternalTerminal("test", Terminal.TYPE_DUMB,
                     new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)), screen, StandardCharsets.UTF_8)) {
            exitCode = new InteractiveConsole(new Shell(session, io.err()), io).runOn(terminal, server.connectString());
        }
        assertEquals(0, exitCode, "errors in an interactive session do not make it fail");
        String shown = screen.toString(StandardCharsets.UTF_8);
        assertTrue(shown.contains("Connecting to " + server.connectString()), shown);
        assertTrue(shown.contains("[warden: " + server.connectString() + "(CONNECTED) 0] "), shown);
        assertTrue(shown.contains("WATCHER:: WatchedEvent state:SyncConnected type:NodeDataChanged path:/inter"), shown);
        assertEquals("Created /inter\none\n", out.toString(StandardCharsets.UTF_8));
        assertEquals("Node does not exist: /nothing\n", err.toString(StandardCharsets.UTF_8));
        String history = Files.readString(historyFile);
        assertTrue(history.contains("create /inter one") && history.contains("quit") && !history.contains("ls /"), history);
    }

    @Test
    void wardenShellIsRegisteredAndDocumentsItsOptions() {
        // neither collaborator is used by help; they only complete the command tree
        CommandLine cli = Main.commandLine(ServerLauncher.warden(), StopSignal.jvmShutdown());
        StringWriter help = new StringWriter();
        cli.setOut(new PrintWriter(help, true));
        assertEquals(0, cli.execute("help", "shell"));
        assertTrue(help.toString().contains("-server=host:port[,host:port][/chroot]"), help.toString());
        assertTrue(help.toString().contains("-timeout=ms"), help.toString());
    }
}

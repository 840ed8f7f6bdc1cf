package dev.warden.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A run against nothing fails at once and says why; a bad connect string is a usage error. */
class ListeningCheckTest {

    /** A loopback port nothing listens on: bound once to learn a free number, then released. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aRunAgainstAClosedPortFailsNamingThePortBeforeAnySessionIsTried() throws Exception {
        int port = closedPort();
        LoadSpec spec = LoadSpec.defaults("127.0.0.1:" + port, Workload.SET_DATA).withDurations(0, 1);
        IOException failure = assertThrows(IOException.class,
                () -> new LoadRunner(new PrintWriter(new StringWriter())).run(spec));
        // the check's own message: without it the run would wait out the 30 s session timeout
        // and fail with "cannot connect to ...: no session"
        assertEquals("no server accepts connections at 127.0.0.1:" + port + " (Connection refused)",
                failure.getMessage());
    }

    @Test
    void oneListeningHostIsEnoughAndEveryFailureIsNamedOtherwise() throws Exception {
        int closed = closedPort();
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ListeningCheck.requireOneListening("127.0.0.1:" + closed + ",127.0.0.1:" + listening.getLocalPort());
        }
        IOException both = assertThrows(IOException.class, () -> ListeningCheck.requireOneListening(
                "127.0.0.1:" + closed + ",no-such-host.invalid:2181"));
        assertEquals("no server accepts connections at 127.0.0.1:" + closed + " (Connection refused), "
                + "no-such-host.invalid:2181 (unknown host)", both.getMessage());
    }

    @Test
    void aMalformedConnectStringIsAUsageErrorNamingTheBadPart() {
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> LoadSpec.defaults("127.0.0.1:2181,bad:host:x", Workload.SET_DATA));
        assertEquals("connect string '127.0.0.1:2181,bad:host:x': bad port 'x' in 'bad:host:x' (1-65535)",
                bad.getMessage());

        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new LoadCommand());
        command.setErr(new PrintWriter(err));
        int exit = command.execute("-c", "h:0", "-w", "setData");
        assertEquals(2, exit, err::toString);
        assertTrue(err.toString().startsWith("connect string 'h:0': bad port '0' in 'h:0' (1-65535)"), err::toString);
    }
}

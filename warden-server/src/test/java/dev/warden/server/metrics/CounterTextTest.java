package dev.warden.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Counters in text format 0.0.4 under their own names, as ZooKeeper's provider writes them. */
class CounterTextTest {
    @Test
    void aCounterKeepsItsNameInHelpTypeAndSample() throws Exception {
        StringWriter out = new StringWriter();
        CounterText.write(out, List.of(new CounterSample("bytes_received_count", "bytes_received_count", 42),
                new CounterSample("looking_count", "looking_count", 0)));
        assertEquals("""
                # HELP bytes_received_count bytes_received_count
                # TYPE bytes_received_count counter
                bytes_received_count 42.0
                # HELP looking_count looking_count
                # TYPE looking_count counter
                looking_count 0.0
                """, out.toString());
    }

    @Test
    void helpEscapesBackslashesAndLineBreaks() throws Exception {
        StringWriter out = new StringWriter();
        CounterText.write(out, List.of(new CounterSample("c", "a\\b\nc \"d\"", 1)));
        assertEquals("# HELP c a\\\\b\\nc \"d\"\n# TYPE c counter\nc 1.0\n", out.toString());
    }
}

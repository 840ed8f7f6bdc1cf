package dev.warden.bench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ProbeReportTest {
    @Test
    void formatThenParseGivesTheSameEntriesInOrder() {
        ProbeReport report = new ProbeReport().put(ProbeReport.FLAVOUR, "warden")
                .put(ProbeReport.HEAP_BYTES_PER_ZNODE, "212.5").put(ProbeReport.SNAPSHOT_BYTES, 123456L);
        ProbeReport parsed = ProbeReport.parse(report.format());
        assertEquals(report.asMap(), parsed.asMap());
        assertEquals(212.5, parsed.getDouble(ProbeReport.HEAP_BYTES_PER_ZNODE));
    }

    @Test
    void parseSkipsLinesThatAreNotReportLines() {
        String output = "SLF4J(W): No SLF4J providers were found.\nprobe.znodes=20000\nserving\n";
        ProbeReport parsed = ProbeReport.parse(output);
        assertEquals("20000", parsed.get(ProbeReport.ZNODES));
        assertFalse(parsed.has(ProbeReport.FLAVOUR));
    }

    @Test
    void outputWithoutReportLinesIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> ProbeReport.parse("Exception in thread main\n"));
    }

    @Test
    void malformedReportLineIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> ProbeReport.parse("probe.=5\n"));
        assertThrows(IllegalArgumentException.class, () -> ProbeReport.parse("probe.novalue\n"));
    }

    @Test
    void missingOrNonNumericValueNamesTheKey() {
        ProbeReport report = ProbeReport.parse("probe.snapshotMs=fast\n");
        var notNumber = assertThrows(IllegalArgumentException.class, () -> report.getDouble(ProbeReport.SNAPSHOT_MS));
        assertEquals("report value snapshotMs=fast is not a number", notNumber.getMessage());
        assertThrows(IllegalArgumentException.class, () -> report.get(ProbeReport.SNAPSHOT_BYTES));
    }
}

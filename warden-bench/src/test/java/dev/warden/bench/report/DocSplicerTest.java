package dev.warden.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocSplicerTest {
    private static final DocSplicer.Markers FIGURES = new DocSplicer.Markers("<!-- f:begin -->", "<!-- f:end -->");

    @TempDir
    Path dir;

    @Test
    void splicesBetweenTheGivenMarkersAndLeavesOtherSectionsAlone() throws Exception {
        Path doc = dir.resolve("DOC.md");
        String results = DocSplicer.BEGIN + "\nresults\n" + DocSplicer.END + "\n";
        Files.writeString(doc, "# T\n" + results + "<!-- f:begin -->\nold\n<!-- f:end -->\ntail\n");

        DocSplicer.spliceFile(doc, FIGURES, "\nnew figures\n\n");

        assertEquals("# T\n" + results + "<!-- f:begin -->\nnew figures\n<!-- f:end -->\ntail\n", Files.readString(doc));
    }

    @Test
    void aFileWithoutTheMarkersIsRefusedAndLeftAsItWas() throws Exception {
        Path doc = dir.resolve("PLAIN.md");
        Files.writeString(doc, "# T\n" + DocSplicer.BEGIN + "\n" + DocSplicer.END + "\n");

        assertFalse(DocSplicer.hasMarkers(Files.readString(doc), FIGURES));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> DocSplicer.requireMarkersIfExists(doc, FIGURES));
        assertTrue(refused.getMessage().contains("<!-- f:begin -->"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DocSplicer.spliceFile(doc, FIGURES, "x"));
        assertEquals("# T\n" + DocSplicer.BEGIN + "\n" + DocSplicer.END + "\n", Files.readString(doc));

        DocSplicer.requireMarkersIfExists(doc, DocSplicer.BENCH_RESULTS); // these it has
        DocSplicer.requireMarkersIfExists(dir.resolve("absent.md"), FIGURES); // nothing to check
    }

    @Test
    void markersMustBeTwoDifferentStrings() {
        assertThrows(IllegalArgumentException.class, () -> new DocSplicer.Markers("<!-- x -->", "<!-- x -->"));
        assertThrows(IllegalArgumentException.class, () -> new DocSplicer.Markers("", "<!-- x -->"));
    }
}

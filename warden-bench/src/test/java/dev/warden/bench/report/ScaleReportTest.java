package dev.warden.bench.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.scale.ScaleDimension;
import dev.warden.bench.scale.ScalePoint;
import dev.warden.cli.cluster.Flavour;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

/** The scale table and plot from fixed figures. */
class ScaleReportTest {
    private static final List<ScalePoint> POINTS = List.of(
            new ScalePoint(ScaleDimension.VALUE_SIZE, 16, Flavour.APACHE, 10_000, 1000, 5000, null),
            new ScalePoint(ScaleDimension.VALUE_SIZE, 16, Flavour.WARDEN, 25_000, 400, 2000, null),
            new ScalePoint(ScaleDimension.VALUE_SIZE, 1 << 20, Flavour.APACHE, 50, 80_000, 200_000, null),
            ScalePoint.failed(ScaleDimension.VALUE_SIZE, 1 << 20, Flavour.WARDEN, "died: out of memory"));

    @Test
    void tableHasBothServersRatiosAndFailures() {
        String md = ScaleReport.section("Run of today.", ScaleDimension.VALUE_SIZE, POINTS,
                Optional.of("scale/value-size.svg"));
        assertTrue(md.startsWith("#### value-size: value bytes per setData\n\nRun of today.\n\n| value-size |"), md);
        assertTrue(md.contains("| 16 B | 10,000 | 25,000 | 2.50× | 1.00 | 0.40 | 5.00 | 2.00 |"), md);
        assertTrue(md.contains("| 1 MiB | 50 | failed | n/a |"), md);
        assertTrue(md.contains("- Warden at 1048576: died: out of memory"), md);
        assertTrue(md.contains("![value-size](scale/value-size.svg)"), md);
    }

    private static final List<ScalePoint> HEAP_POINTS = List.of(
            new ScalePoint(ScaleDimension.ZNODES, 10_000, Flavour.APACHE, 40_000, 500, 3000, 21.5, null),
            new ScalePoint(ScaleDimension.ZNODES, 10_000, Flavour.WARDEN, 80_000, 250, 1500, 12.25, null),
            new ScalePoint(ScaleDimension.ZNODES, 1_000_000, Flavour.APACHE, 30_000, 600, 4000, 410, null),
            new ScalePoint(ScaleDimension.ZNODES, 1_000_000, Flavour.WARDEN, 70_000, 300, 2000, 250, null));

    @Test
    void aDimensionsThirdFigureHasColumnsAndAPanel() throws Exception {
        String md = ScaleReport.section("Run of today.", ScaleDimension.ZNODES, HEAP_POINTS, Optional.empty());
        assertTrue(md.contains("| Apache MiB heap after GC | Warden MiB heap after GC |\n|--:|--:|--:|--:|--:|--:|--:|"
                + "--:|--:|--:|\n"), md);
        assertTrue(md.contains("| 1,000,000 | 30,000 | 70,000 | 2.33× | 0.60 | 0.30 | 4.00 | 2.00 | 410 | 250 |"),
                md);
        String svg = ScalePlot.render(ScaleDimension.ZNODES, HEAP_POINTS);
        DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertTrue(svg.contains("MiB heap after GC (lower is better)"), svg);
        assertTrue(svg.contains(">410<"), "the heap panel labels its points: " + svg);
    }

    @Test
    void eachDimensionHasASectionOfItsOwn() {
        String document = "intro\n" + ScaleReport.markers(ScaleDimension.ZNODES).begin() + "\nold znodes\n"
                + ScaleReport.markers(ScaleDimension.ZNODES).end() + "\n" + ScaleReport.markers(ScaleDimension.VALUE_SIZE)
                .begin() + "\nold values\n" + ScaleReport.markers(ScaleDimension.VALUE_SIZE).end() + "\n";
        String spliced = DocSplicer.splice(document, ScaleReport.markers(ScaleDimension.ZNODES),
                ScaleReport.section("Run of today.", ScaleDimension.ZNODES, HEAP_POINTS, Optional.empty()));
        assertTrue(spliced.contains("old values"), "another dimension's figures stay: " + spliced);
        assertFalse(spliced.contains("old znodes"), spliced);
        assertTrue(spliced.contains("<!-- bench:scale:znodes:begin -->\n#### znodes: znodes in the tree"), spliced);
    }

    @Test
    void plotIsWellFormedSvgWithALinePerServer() throws Exception {
        String svg = ScalePlot.render(ScaleDimension.VALUE_SIZE, POINTS);
        DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertTrue(svg.contains("1 MiB"), svg);
        assertTrue(svg.contains("<path"), "Apache has two points, so a line: " + svg);
    }
}

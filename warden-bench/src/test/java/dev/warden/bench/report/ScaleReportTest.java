package dev.warden.bench.report;

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
        String md = ScaleReport.render("Run of today.", List.of(ScaleDimension.VALUE_SIZE), POINTS,
                d -> Optional.of("scale/" + d.cliName() + ".svg"));
        assertTrue(md.contains("| 16 B | 10,000 | 25,000 | 2.50× | 1.00 | 0.40 | 5.00 | 2.00 |"), md);
        assertTrue(md.contains("| 1 MiB | 50 | failed | n/a |"), md);
        assertTrue(md.contains("- Warden at 1048576: died: out of memory"), md);
        assertTrue(md.contains("![value-size](scale/value-size.svg)"), md);
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

package dev.warden.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Replaces what lies between a pair of markers in a Markdown file, leaving the rest as written.
 * The benchmark commands write their generated sections this way, so the prose around them
 * stays hand-written.
 */
public final class DocSplicer {
    /** The two HTML comments (invisible when rendered) that fence a generated section. */
    public record Markers(String begin, String end) {
        public Markers {
            if (begin.isEmpty() || end.isEmpty() || begin.equals(end)) {
                throw new IllegalArgumentException("markers must be two different non-empty strings");
            }
        }
    }

    /** The results section of docs/BENCHMARKS.md, written by {@code warden bench compare}. */
    public static final Markers BENCH_RESULTS = new Markers("<!-- bench:results:begin -->", "<!-- bench:results:end -->");
    public static final String BEGIN = BENCH_RESULTS.begin();
    public static final String END = BENCH_RESULTS.end();

    private DocSplicer() {
    }

    /** {@link #splice(String, Markers, String)} with the benchmark results markers. */
    public static String splice(String document, String results) {
        return splice(document, BENCH_RESULTS, results);
    }

    /**
     * Returns {@code document} with everything between the markers replaced by {@code content}
     * (on lines of its own). A document without both markers, in order, is refused.
     */
    public static String splice(String document, Markers markers, String content) {
        int begin = document.indexOf(markers.begin());
        int end = document.indexOf(markers.end());
        if (!inOrder(begin, end)) {
            throw new IllegalArgumentException("the document lacks the markers " + markers.begin() + " ... "
                    + markers.end());
        }
        return document.substring(0, begin + markers.begin().length()) + "\n" + content.strip() + "\n"
                + document.substring(end);
    }

    /** True if both markers are in {@code document}, the begin marker first. */
    public static boolean hasMarkers(String document, Markers markers) {
        return inOrder(document.indexOf(markers.begin()), document.indexOf(markers.end()));
    }

    private static boolean inOrder(int beginIndex, int endIndex) {
        return beginIndex >= 0 && endIndex > beginIndex;
    }

    /**
     * Refuses an existing {@code file} that could not take the section, so that a command finds
     * out before it measures, not after. A file that does not exist is not checked: the
     * commands then print their results only.
     */
    public static void requireMarkersIfExists(Path file, Markers markers) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        String document;
        try {
            document = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (!hasMarkers(document, markers)) {
            throw new IllegalArgumentException(file + " lacks the markers " + markers.begin() + " ... "
                    + markers.end() + "; add them where the section belongs, or name another file");
        }
    }

    public static void spliceFile(Path file, String results) throws IOException {
        spliceFile(file, BENCH_RESULTS, results);
    }

    /** Splices {@code file} in place; it is left untouched if it lacks the markers. */
    public static void spliceFile(Path file, Markers markers, String content) throws IOException {
        String document = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, splice(document, markers, content), StandardCharsets.UTF_8);
    }
}

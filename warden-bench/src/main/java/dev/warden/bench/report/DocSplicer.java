package dev.warden.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Replaces what lies between the results markers of a Markdown file, leaving the rest as written. */
public final class DocSplicer {
    public static final String BEGIN = "<!-- bench:results:begin -->";
    public static final String END = "<!-- bench:results:end -->";

    private DocSplicer() {
    }

    public static String splice(String document, String results) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        if (begin < 0 || end < 0 || end < begin) {
            throw new IllegalArgumentException("the document lacks the markers " + BEGIN + " ... " + END);
        }
        return document.substring(0, begin + BEGIN.length()) + "\n" + results.strip() + "\n"
                + document.substring(end);
    }

    public static void spliceFile(Path file, String results) throws IOException {
        String document = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, splice(document, results), StandardCharsets.UTF_8);
    }
}

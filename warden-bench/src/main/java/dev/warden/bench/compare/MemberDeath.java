package dev.warden.bench.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Why a member JVM died, as far as its log tells: the first fatal error line, for the results table. */
final class MemberDeath {
    private static final List<String> FATAL_MARKS = List.of("OutOfMemoryError", "StackOverflowError",
            "Exception in thread \"main\"");
    private static final int MAX_LINE_CHARS = 200;

    private MemberDeath() {
    }

    /** {@code ": <first fatal line>"} from {@code log}, or "" when there is none or the log cannot be read. */
    static String hint(Path log) {
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.filter(line -> FATAL_MARKS.stream().anyMatch(line::contains)).findFirst()
                    .map(line -> ": " + shortened(line.strip())).orElse("");
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String shortened(String line) {
        return line.length() <= MAX_LINE_CHARS ? line : line.substring(0, MAX_LINE_CHARS) + "…";
    }
}

package dev.warden.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A /metrics body in Prometheus's text format 0.0.4, parsed as strictly as a scraper reads it:
 * each family's HELP and TYPE lines name it once, before its samples, and each sample belongs to
 * the family declared last (its own name; for a summary also {@code _sum} and {@code _count};
 * for a histogram {@code _bucket}, {@code _sum}, {@code _count}). Fails the test otherwise.
 *
 * @param types   family name to its TYPE ({@code counter}, {@code gauge}, {@code summary}, ...)
 * @param samples sample name with its labels to its value; a labelled sample also under its bare name
 */
record ExpositionText(Map<String, String> types, Map<String, String> samples) {
    static ExpositionText parse(String body) {
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, String> helped = new HashMap<>();
        Map<String, String> samples = new HashMap<>();
        String family = null;
        for (String line : body.lines().toList()) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("# HELP ")) {
                String name = line.substring(7).split(" ", 2)[0];
                assertTrue(helped.put(name, line) == null, "second HELP for " + name);
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                assertEquals(2, parts.length, line);
                assertTrue(types.put(parts[0], parts[1]) == null, "second TYPE for " + parts[0]);
                assertTrue(helped.containsKey(parts[0]), "TYPE without HELP of the same name: " + line);
                family = parts[0];
                continue;
            }
            assertTrue(!line.startsWith("#"), line);
            int space = line.lastIndexOf(' ');
            String nameAndLabels = line.substring(0, space);
            int brace = nameAndLabels.indexOf('{');
            String name = brace > 0 ? nameAndLabels.substring(0, brace) : nameAndLabels;
            if (family == null || !belongs(name, family, types.get(family))) {
                fail("sample " + name + " outside its family (last TYPE: " + family + ")");
            }
            samples.put(nameAndLabels, line.substring(space + 1));
            if (brace > 0) {
                samples.putIfAbsent(name, line.substring(space + 1));
            }
        }
        return new ExpositionText(types, samples);
    }

    private static boolean belongs(String sample, String family, String type) {
        List<String> suffixes = switch (type) {
            case "summary" -> List.of("", "_sum", "_count");
            case "histogram" -> List.of("_bucket", "_sum", "_count");
            default -> List.of("");
        };
        return suffixes.stream().anyMatch(suffix -> sample.equals(family + suffix));
    }
}

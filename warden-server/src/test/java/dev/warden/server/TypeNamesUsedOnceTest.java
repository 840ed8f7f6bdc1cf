package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * One name per concept: no two top-level types in the project's main sources share a simple
 * name, whatever their modules, so a name in a doc, a log line (loggers are named after classes)
 * or a stack trace says which class it is. Nested types are not counted.
 */
class TypeNamesUsedOnceTest {
    /** Fewer types than this means the walk found the wrong directory, not that names are unique. */
    private static final int LEAST_TYPES_EXPECTED = 500;

    @Test
    void everyTopLevelTypeNameIsUsedOnce() throws IOException {
        Map<String, List<Path>> byType = DesignDocNamesTest.mainSourcesByType();
        byType.remove("package-info");
        assertTrue(byType.size() >= LEAST_TYPES_EXPECTED, "found only " + byType.size() + " types");
        Map<String, List<Path>> shared = new TreeMap<>();
        byType.forEach((name, files) -> {
            if (files.size() > 1) {
                shared.put(name, files);
            }
        });
        assertEquals(Map.of(), shared, "type names declared in more than one main source file; rename all but one");
    }
}

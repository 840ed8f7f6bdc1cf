package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class PathsTest {
    @Test
    void acceptsValidPaths() {
        for (String path : new String[] {"/", "/a", "/a/b", "/.a", "/a.", "/...", "/ünï"}) {
            assertDoesNotThrow(() -> Paths.validate(path), path);
        }
        assertDoesNotThrow(() -> Paths.validateSequential("/q/"));
    }

    @Test
    void rejectsInvalidPaths() {
        for (String path : new String[] {"", "a", "/a/", "//", "/a//b", "/.", "/a/..", "/a\u0000", "/\u0001", "/\ud800x", "/\ufff5"}) {
            assertThrows(IllegalArgumentException.class, () -> Paths.validate(path), path);
        }
        assertThrows(IllegalArgumentException.class, () -> Paths.validate(null));
    }

    @Test
    void mapsPathsThroughTheChroot() {
        Paths paths = new Paths("/app");
        assertEquals("/app", paths.toServer("/"));
        assertEquals("/app/x", paths.toServer("/x"));
        assertEquals("/", paths.toClient("/app"));
        assertEquals("/x/y", paths.toClient("/app/x/y"));
        assertNull(paths.toClient("/apple"));
        assertNull(paths.toClient("/other"));
        assertEquals("/x", new Paths("").toClient("/x"));
    }

    @Property
    void chrootMappingRoundTrips(@ForAll @AlphaChars @StringLength(min = 1, max = 8) String a,
                                 @ForAll @AlphaChars @StringLength(min = 1, max = 8) String b) {
        Paths paths = new Paths("/" + a);
        String clientPath = "/" + b + "/" + a;
        assertEquals(clientPath, paths.toClient(paths.toServer(clientPath)));
    }

    @Test
    void parentOfPaths() {
        assertEquals("/", Paths.parent("/a"));
        assertEquals("/a", Paths.parent("/a/b"));
    }
}

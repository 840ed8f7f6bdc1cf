package dev.warden.server.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/** The console's page, script and style sheet, read once from the jar. */
final class ConsoleResources {
    /** A file of the page: its bytes and content type. */
    record Resource(byte[] bytes, String contentType) {
    }

    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "console.js", "text/javascript; charset=utf-8",
            "console.css", "text/css; charset=utf-8");

    private final Map<String, Resource> byName;

    ConsoleResources() {
        java.util.HashMap<String, Resource> loaded = new java.util.HashMap<>();
        FILES.forEach((name, type) -> loaded.put(name, new Resource(read(name), type)));
        byName = Map.copyOf(loaded);
    }

    /** The file for a path under /console/ ("" is the page). */
    Optional<Resource> find(String name) {
        return Optional.ofNullable(byName.get(name.isEmpty() ? "index.html" : name));
    }

    private static byte[] read(String name) {
        try (InputStream in = ConsoleResources.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the console's " + name + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

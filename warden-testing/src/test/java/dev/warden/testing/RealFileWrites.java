package dev.warden.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Every write and fsync this JVM makes to a file of the operating system's file systems while
 * it records, from any thread: Flight Recorder's {@code jdk.FileWrite} and {@code jdk.FileForce}
 * events (file channels, file streams, random access files) with no duration threshold.
 * Writes to standard output and error carry no path and are left out; so is anything done on
 * another file system provider, which those events do not see.
 */
final class RealFileWrites implements AutoCloseable {
    private static final List<String> EVENTS = List.of("jdk.FileWrite", "jdk.FileForce");

    /** One write or fsync: the event's name, the file and the thread that did it. */
    record Write(String event, String path, String thread) {
    }

    private final Recording recording = new Recording();

    private RealFileWrites() {
        for (String event : EVENTS) {
            recording.enable(event).withThreshold(Duration.ZERO);
        }
        recording.start();
    }

    static RealFileWrites start() {
        return new RealFileWrites();
    }

    /** Stops recording and returns what was written to named files, in the order recorded. */
    List<Write> stop() throws IOException {
        recording.stop();
        Path dump = Files.createTempFile("warden-file-writes", ".jfr");
        try {
            recording.dump(dump);
            List<Write> writes = new ArrayList<>();
            for (RecordedEvent event : RecordingFile.readAllEvents(dump)) {
                String path = event.getString("path");
                if (path != null) {
                    writes.add(new Write(event.getEventType().getName(), path,
                            event.getThread() == null ? "?" : event.getThread().getJavaName()));
                }
            }
            return writes;
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    @Override
    public void close() {
        recording.close();
    }
}

package dev.warden.storage;

import java.util.Iterator;

/**
 * Reads log records in zxid order. I/O failures surface as {@link java.io.UncheckedIOException}
 * (wrapping a {@link CorruptLogException} when a record fails its checksum).
 */
public interface LogIterator extends Iterator<LogRecord>, AutoCloseable {
    @Override
    void close();
}

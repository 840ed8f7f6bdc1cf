package dev.warden.storage;

/** How snapshot bodies are stored: as written, or gzip-compressed (ZooKeeper's snapshot.compression.method=gz). */
public enum SnapshotCompression {
    NONE,
    GZIP
}

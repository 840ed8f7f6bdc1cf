package dev.warden.storage;

import java.io.DataOutputStream;
import java.io.IOException;

/** Writes a snapshot body; the store adds the header and checksum around it. */
@FunctionalInterface
public interface SnapshotBodyWriter {
    void write(DataOutputStream out) throws IOException;
}

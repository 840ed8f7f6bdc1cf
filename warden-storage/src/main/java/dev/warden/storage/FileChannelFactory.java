package dev.warden.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/**
 * Opens the file channels the storage layer writes through. It exists so that tests can put a
 * fault-injecting channel (disk full, failing fsync) underneath the real code paths.
 */
@FunctionalInterface
public interface FileChannelFactory {

    /** The production factory: plain {@link FileChannel#open(Path, Set, java.nio.file.attribute.FileAttribute[])}. */
    FileChannelFactory DEFAULT = FileChannel::open;

    FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;
}

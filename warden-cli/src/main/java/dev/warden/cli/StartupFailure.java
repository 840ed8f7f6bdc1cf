package dev.warden.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * One line saying why the server could not start: what failed, on which file or port, and the
 * cause in words. Java's file exceptions carry only the path as their message ("/data/snapshots"),
 * which says neither what went wrong nor what to do.
 */
final class StartupFailure {
    private StartupFailure() {
    }

    static String describe(Throwable failure) {
        Throwable e = failure instanceof UncheckedIOException unchecked ? unchecked.getCause() : failure;
        if (e instanceof AccessDeniedException denied) {
            return "permission denied on " + denied.getFile() + ": the user running the server ("
                    + System.getProperty("user.name") + ") may not read or write it; fix its owner or mode, or point"
                    + " dataDir/dataLogDir elsewhere";
        }
        if (e instanceof NoSuchFileException missing) {
            return missing.getFile() + " does not exist" + (missing.getReason() == null ? "" : " (" + missing.getReason()
                    + ")") + ": create its parent directory or fix the path";
        }
        if (e instanceof NotDirectoryException notDir) {
            return notDir.getFile() + " is a file, not a directory: point dataDir/dataLogDir at a directory";
        }
        if (e instanceof FileAlreadyExistsException exists) {
            return exists.getFile() + " exists and is in the way: remove it or choose another path";
        }
        if (e instanceof FileSystemException other) {
            return other.getFile() + ": " + (other.getReason() != null ? other.getReason() : other.getClass().getSimpleName());
        }
        String message = e.getMessage();
        return message != null && !message.isBlank() ? message : e.toString();
    }

    static boolean isStartupFailure(Throwable e) {
        return e instanceof IOException || e instanceof UncheckedIOException;
    }
}

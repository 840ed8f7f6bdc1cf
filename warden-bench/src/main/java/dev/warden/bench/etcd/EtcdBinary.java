package dev.warden.bench.etcd;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the etcd server binary the benchmarks start: {@code $ETCD_BIN} if set, else {@code etcd} on
 * the PATH. The build needs no etcd; only the benchmarks that compare with it do, and they say how
 * to get it when it is missing.
 */
public final class EtcdBinary {
    /** Environment variable naming the etcd binary to use instead of the one on the PATH. */
    public static final String ENV = "ETCD_BIN";
    /** How to get etcd, for the message when it is missing. */
    public static final String INSTALL_HINT = "install it with `apt-get install etcd-server` (Debian, Ubuntu)"
            + " or set " + ENV + " to an etcd 3.4+ server binary";

    private EtcdBinary() {
    }

    /** The binary to run; an {@link EtcdUnavailableException} naming the way out when there is none. */
    public static Path locate() throws EtcdUnavailableException {
        return locate(System.getenv()).orElseThrow(() -> new EtcdUnavailableException(
                System.getenv(ENV) != null ? ENV + "=" + System.getenv(ENV) + " is not an executable file; "
                        + INSTALL_HINT : "no etcd on the PATH; " + INSTALL_HINT));
    }

    /** The binary {@code env} points to, if it is executable. Package-private for tests. */
    static Optional<Path> locate(Map<String, String> env) {
        String explicit = env.get(ENV);
        if (explicit != null) {
            Path path = Path.of(explicit);
            return Files.isExecutable(path) && Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
        }
        String searchPath = env.getOrDefault("PATH", "");
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "etcd");
                if (Files.isExecutable(candidate) && Files.isRegularFile(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}

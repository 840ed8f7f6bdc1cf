package dev.warden.cli.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Everything needed to lay out and launch a local ensemble. Build with {@link #builder}; the
 * constructor validates, so a spec that exists is usable.
 *
 * @param participants    voting members, ids 1..participants
 * @param observers       non-voting members, ids after the participants
 * @param classPath       the member JVMs' classpath; it must hold the flavour's main class
 * @param jvmOptions      heap and GC options for every member JVM
 * @param extraConfigLines appended to every member's zoo.cfg after the generated lines
 * @param dynamicConfigVersion when present, the member lines go into a ZooKeeper 3.5+ dynamic
 *                         config file named {@code zoo.cfg.dynamic.<version in hex>} beside each
 *                         zoo.cfg, which names it with {@code dynamicConfigFile}; when empty they
 *                         are written in zoo.cfg
 */
public record ClusterSpec(Flavour flavour, int participants, int observers, Path baseDir, String classPath,
                          Path javaExecutable, List<String> jvmOptions, int tickTimeMs, int initLimitTicks,
                          int syncLimitTicks, List<String> extraConfigLines, OptionalLong dynamicConfigVersion) {
    public static final List<String> DEFAULT_JVM_OPTIONS =
            List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    public ClusterSpec {
        Objects.requireNonNull(flavour, "flavour");
        Objects.requireNonNull(baseDir, "baseDir");
        Objects.requireNonNull(classPath, "classPath");
        Objects.requireNonNull(javaExecutable, "javaExecutable");
        if (participants < 1) {
            throw new IllegalArgumentException("an ensemble needs at least one participant, was " + participants);
        }
        if (observers < 0) {
            throw new IllegalArgumentException("observers must not be negative, was " + observers);
        }
        if (classPath.isBlank()) {
            throw new IllegalArgumentException("classPath is empty: the members could not find " + flavour.mainClass());
        }
        if (tickTimeMs < 1 || initLimitTicks < 1 || syncLimitTicks < 1) {
            throw new IllegalArgumentException("tickTimeMs, initLimitTicks and syncLimitTicks must be positive, were "
                    + tickTimeMs + ", " + initLimitTicks + ", " + syncLimitTicks);
        }
        jvmOptions = List.copyOf(jvmOptions);
        extraConfigLines = List.copyOf(extraConfigLines);
        Objects.requireNonNull(dynamicConfigVersion, "dynamicConfigVersion");
        if (dynamicConfigVersion.isPresent() && dynamicConfigVersion.getAsLong() < 0) {
            throw new IllegalArgumentException("a dynamic config version is not negative, was "
                    + dynamicConfigVersion.getAsLong());
        }
    }

    public int memberCount() {
        return participants + observers;
    }

    public boolean isObserver(int id) {
        return id > participants && id <= memberCount();
    }

    /** Defaults: 3 participants, no observers, tick 500 ms (sessions 1–10 s), the running JVM's java. */
    public static Builder builder(Flavour flavour, Path baseDir, String classPath) {
        return new Builder(flavour, baseDir, classPath);
    }

    public static final class Builder {
        private final Flavour flavour;
        private final Path baseDir;
        private final String classPath;
        private int participants = 3;
        private int observers;
        private Path javaExecutable = Path.of(ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this JVM")));
        private List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
        private int tickTimeMs = 500;
        private int initLimitTicks = 10;
        private int syncLimitTicks = 5;
        private final List<String> extraConfigLines = new ArrayList<>();
        private OptionalLong dynamicConfigVersion = OptionalLong.empty();

        private Builder(Flavour flavour, Path baseDir, String classPath) {
            this.flavour = flavour;
            this.baseDir = baseDir;
            this.classPath = classPath;
        }

        public Builder participants(int count) {
            this.participants = count;
            return this;
        }

        public Builder observers(int count) {
            this.observers = count;
            return this;
        }

        public Builder javaExecutable(Path java) {
            this.javaExecutable = java;
            return this;
        }

        public Builder jvmOptions(List<String> options) {
            this.jvmOptions = options;
            return this;
        }

        public Builder tickTimeMs(int value) {
            this.tickTimeMs = value;
            return this;
        }

        public Builder initLimitTicks(int value) {
            this.initLimitTicks = value;
            return this;
        }

        public Builder syncLimitTicks(int value) {
            this.syncLimitTicks = value;
            return this;
        }

        /** A {@code key=value} line added to every member's zoo.cfg. */
        public Builder configLine(String line) {
            if (!line.contains("=")) {
                throw new IllegalArgumentException("a zoo.cfg line is key=value, was '" + line + "'");
            }
            extraConfigLines.add(line);
            return this;
        }

        /** Puts the member lines in a dynamic config file of this version instead of zoo.cfg. */
        public Builder dynamicConfigFile(long version) {
            this.dynamicConfigVersion = OptionalLong.of(version);
            return this;
        }

        public ClusterSpec build() {
            return new ClusterSpec(flavour, participants, observers, baseDir, classPath, javaExecutable, jvmOptions,
                    tickTimeMs, initLimitTicks, syncLimitTicks, extraConfigLines, dynamicConfigVersion);
        }
    }
}

package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.state.tree.DataTree;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The packages of warden-server and of warden-state, which it stands on, form no cycle: each
 * stands on the ones below it (docs/DESIGN.md, "The packages of warden-state and warden-server"),
 * so a package can be read, tested and changed knowing only those. The dependencies are the
 * compiled classes' as the JDK's jdeps reads them, so a type named only in a signature or a
 * constant counts as well.
 */
class PackageCyclesTest {
    /** The two modules' package prefixes; warden-state never uses warden-server (Maven sees to that). */
    private static final List<String> PROJECT_PACKAGES = List.of("dev.warden.server", "dev.warden.state");
    /** A line of {@code jdeps -verbose:package}: "   from   -> to   where". */
    private static final Pattern DEPENDENCY = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s", Pattern.MULTILINE);
    /** Fewer packages than this means jdeps' output was not read, not that the packages are few. */
    private static final int LEAST_PACKAGES_EXPECTED = 10;
    /** warden-state's packages, each of which uses another or is used: all of them must be read. */
    private static final List<String> STATE_PACKAGES = List.of("dev.warden.state.common", "dev.warden.state.txn",
            "dev.warden.state.auth", "dev.warden.state.watch", "dev.warden.state.session", "dev.warden.state.tree",
            "dev.warden.state.pipeline");

    @Test
    void wardenServerAndWardenStateHaveNoPackageCycle() throws Exception {
        Map<String, Set<String>> dependsOn = projectPackageDependencies();
        assertTrue(dependsOn.size() >= LEAST_PACKAGES_EXPECTED,
                "jdeps reported only " + dependsOn.keySet() + "; is its output format still the one this test reads?");
        Set<String> seen = new TreeSet<>(dependsOn.keySet());
        dependsOn.values().forEach(seen::addAll);
        assertTrue(seen.containsAll(STATE_PACKAGES), "warden-state's classes were not read: " + seen);
        assertEquals(List.of(), PackageCycles.of(dependsOn),
                "package cycles in warden-server or warden-state (move the class that closes each cycle down to a "
                        + "lower package): " + dependsOn);
    }

    @Test
    void aCycleThroughThreePackagesIsFoundAndSelfDependenciesAreNot() {
        Map<String, Set<String>> dependsOn = Map.of(
                "a", Set.of("a", "b"), "b", Set.of("c"), "c", Set.of("a", "d"), "d", Set.of("e"), "e", Set.of());
        assertEquals(List.of(new TreeSet<>(List.of("a", "b", "c"))), PackageCycles.of(dependsOn));
    }

    /**
     * Package to the project packages it uses, read with jdeps from this module's compiled classes
     * and warden-state's (a directory in the reactor, a jar otherwise).
     */
    private static Map<String, Set<String>> projectPackageDependencies() throws URISyntaxException {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError(
                "the JDK's jdeps tool (module jdk.jdeps) is missing: run the tests on a full JDK"));
        String serverClasses = classesOf(WardenServer.class);
        String stateClasses = classesOf(DataTree.class);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(err),
                "-verbose:package", "-filter:none", serverClasses, stateClasses);
        assertEquals(0, exit, "jdeps failed on " + serverClasses + " and " + stateClasses + ": " + err);
        Map<String, Set<String>> dependsOn = new TreeMap<>();
        Matcher line = DEPENDENCY.matcher(out.toString());
        while (line.find()) {
            String from = line.group(1);
            String to = line.group(2);
            if (isProjectPackage(from) && isProjectPackage(to)) {
                dependsOn.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
            }
        }
        return dependsOn;
    }

    private static String classesOf(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private static boolean isProjectPackage(String pkg) {
        return PROJECT_PACKAGES.stream().anyMatch(prefix -> pkg.equals(prefix) || pkg.startsWith(prefix + "."));
    }
}

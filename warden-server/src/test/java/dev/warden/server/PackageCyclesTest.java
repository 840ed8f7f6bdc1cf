package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * warden-server's packages form no cycle: each stands on the ones below it (docs/DESIGN.md, "The
 * packages of warden-server"), so a package can be read, tested and changed knowing only those.
 * The dependencies are the compiled classes' as the JDK's jdeps reads them, so a type named
 * only in a signature or a constant counts as well.
 */
class PackageCyclesTest {
    private static final String SERVER_PACKAGES = "dev.warden.server";
    /** A line of {@code jdeps -verbose:package}: "   from   -> to   where". */
    private static final Pattern DEPENDENCY = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s", Pattern.MULTILINE);
    /** Fewer packages than this means jdeps' output was not read, not that the packages are few. */
    private static final int LEAST_PACKAGES_EXPECTED = 10;

    @Test
    void wardenServerHasNoPackageCycle() throws Exception {
        Map<String, Set<String>> dependsOn = serverPackageDependencies();
        assertTrue(dependsOn.size() >= LEAST_PACKAGES_EXPECTED,
                "jdeps reported only " + dependsOn.keySet() + "; is its output format still the one this test reads?");
        assertEquals(List.of(), PackageCycles.of(dependsOn),
                "package cycles in warden-server (move the class that closes each cycle down to a lower package): "
                        + dependsOn);
    }

    @Test
    void aCycleThroughThreePackagesIsFoundAndSelfDependenciesAreNot() {
        Map<String, Set<String>> dependsOn = Map.of(
                "a", Set.of("a", "b"), "b", Set.of("c"), "c", Set.of("a", "d"), "d", Set.of("e"), "e", Set.of());
        assertEquals(List.of(new TreeSet<>(List.of("a", "b", "c"))), PackageCycles.of(dependsOn));
    }

    /** Package to the server packages it uses, read with jdeps from this module's compiled classes. */
    private static Map<String, Set<String>> serverPackageDependencies() throws URISyntaxException {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError(
                "the JDK's jdeps tool (module jdk.jdeps) is missing: run the tests on a full JDK"));
        Path classes = Path.of(WardenServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(err),
                "-verbose:package", "-filter:none", classes.toString());
        assertEquals(0, exit, "jdeps failed on " + classes + ": " + err);
        Map<String, Set<String>> dependsOn = new TreeMap<>();
        Matcher line = DEPENDENCY.matcher(out.toString());
        while (line.find()) {
            String from = line.group(1);
            String to = line.group(2);
            if (isServerPackage(from) && isServerPackage(to)) {
                dependsOn.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
            }
        }
        return dependsOn;
    }

    private static boolean isServerPackage(String pkg) {
        return pkg.equals(SERVER_PACKAGES) || pkg.startsWith(SERVER_PACKAGES + ".");
    }
}

package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/DESIGN.md, the map of the code, names only types that exist: a class that is renamed,
 * moved to another package or removed fails this test until the map follows it.
 *
 * <p>Every {@code `code span`} of the document that reads as a reference to a Java type is
 * checked against the {@code .java} files under the repository's {@code * /src/main/java}
 * directories: an optional package prefix (which may be partial, {@code quorum.MemberLoop}),
 * the type in UpperCamelCase, optionally nested types ({@code ZabMessage.Propose}) and one
 * member ({@code TxnLog.flush} or {@code TxnLog.flush()}). The type's file must exist (in that
 * package, when one is given), each nested type must be declared in it and the member must
 * appear in it. Names with a package prefix outside the project ({@code java.}, {@code io.netty.},
 * ...) are not checked.
 */
class DesignDocNamesTest {
    private static final Path REPOSITORY = Path.of("..");
    private static final Path DESIGN = REPOSITORY.resolve("docs").resolve("DESIGN.md");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern PACKAGE = Pattern.compile("[a-z][a-z0-9]*");
    /** UpperCamelCase with at least one lower-case letter, so SNAP, TRUNC or README are not types. */
    private static final Pattern TYPE = Pattern.compile("[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*");
    private static final Pattern MEMBER = Pattern.compile("[a-z][A-Za-z0-9]*|[A-Z][A-Z0-9_]*");
    private static final Set<String> EXTERNAL_PACKAGES = Set.of("java", "javax", "jdk", "io", "org", "com", "sun");
    /** Fewer references than this means the parsing broke, not that the map is honest. */
    private static final int LEAST_REFERENCES_EXPECTED = 50;

    /** A type reference read from a code span. */
    record Reference(String text, List<String> packages, String type, List<String> nested, String member) {
    }

    @Test
    void everyTypeTheMapNamesExists() throws IOException {
        String design = Files.readString(DESIGN, StandardCharsets.UTF_8);
        Map<String, List<Path>> sourcesByType = mainSourcesByType();
        Set<Reference> references = new LinkedHashSet<>();
        Matcher spans = CODE_SPAN.matcher(design);
        while (spans.find()) {
            parse(spans.group(1)).ifPresent(references::add);
        }
        List<String> problems = new ArrayList<>();
        for (Reference reference : references) {
            problemWith(reference, sourcesByType).ifPresent(problem -> problems.add("`" + reference.text() + "`: " + problem));
        }
        assertEquals(List.of(), problems, "docs/DESIGN.md names types, nested types or members that are not in "
                + "*/src/main/java; update the map to the code");
        assertTrue(references.size() >= LEAST_REFERENCES_EXPECTED,
                "only " + references.size() + " type references found in docs/DESIGN.md: is the parsing broken?");
    }

    @Test
    void readsReferencesAsTheMapWritesThem() {
        assertEquals(Optional.of(new Reference("quorum.MemberLoop", List.of("quorum"), "MemberLoop", List.of(), null)),
                parse("quorum.MemberLoop"));
        assertEquals(Optional.of(new Reference("ZabMessage.Propose", List.of(), "ZabMessage", List.of("Propose"), null)),
                parse("ZabMessage.Propose"));
        assertEquals(Optional.of(new Reference("TxnLog.flush()", List.of(), "TxnLog", List.of(), "flush")),
                parse("TxnLog.flush()"));
        assertEquals(Optional.of(new Reference("ActiveSegment.LIGHT_BATCH_BYTES", List.of(), "ActiveSegment", List.of(),
                "LIGHT_BATCH_BYTES")), parse("ActiveSegment.LIGHT_BATCH_BYTES"));
        for (String notAType : List.of("SNAP", "README.md", "zoo.cfg", "O_DIRECT", "Mode: leader", "inlineIdleWrites",
                "java.util.concurrent.ArrayBlockingQueue", "TxnLog.open(scan)", "warden-server")) {
            assertEquals(Optional.empty(), parse(notAType), notAType);
        }
    }

    @Test
    void findsATypeThatDoesNotExist() throws IOException {
        Map<String, List<Path>> sources = mainSourcesByType();
        assertEquals(Optional.empty(), problemWith(parse("quorum.MemberLoop").orElseThrow(), sources));
        assertTrue(problemWith(parse("SimMember").orElseThrow(), sources).isPresent(), "a type that is gone");
        assertTrue(problemWith(parse("pipeline.MemberLoop").orElseThrow(), sources).isPresent(), "the wrong package");
        assertTrue(problemWith(parse("ZabMessage.Proposal").orElseThrow(), sources).isPresent(), "a nested type that is gone");
        assertTrue(problemWith(parse("TxnLog.flushAll").orElseThrow(), sources).isPresent(), "a member that is gone");
    }

    /** The reference a code span makes, if it reads as one to a project type. */
    static Optional<Reference> parse(String span) {
        String text = span.endsWith("()") ? span.substring(0, span.length() - 2) : span;
        if (!text.matches("[A-Za-z0-9_.]+")) {
            return Optional.empty();
        }
        String[] parts = text.split("\\.", -1);
        int i = 0;
        List<String> packages = new ArrayList<>();
        while (i < parts.length && PACKAGE.matcher(parts[i]).matches()) {
            packages.add(parts[i++]);
        }
        if (i == parts.length || !TYPE.matcher(parts[i]).matches()
                || (!packages.isEmpty() && EXTERNAL_PACKAGES.contains(packages.get(0)))) {
            return Optional.empty();
        }
        String type = parts[i++];
        List<String> nested = new ArrayList<>();
        while (i < parts.length && TYPE.matcher(parts[i]).matches()) {
            nested.add(parts[i++]);
        }
        String member = null;
        if (i == parts.length - 1 && MEMBER.matcher(parts[i]).matches()) {
            member = parts[i++];
        }
        if (i != parts.length) {
            return Optional.empty();
        }
        return Optional.of(new Reference(span, List.copyOf(packages), type, List.copyOf(nested), member));
    }

    /** Why the reference names nothing in the code, or empty if one of the type's files has all it names. */
    static Optional<String> problemWith(Reference reference, Map<String, List<Path>> sourcesByType) {
        List<Path> candidates = sourcesByType.getOrDefault(reference.type(), List.of());
        if (candidates.isEmpty()) {
            return Optional.of("no " + reference.type() + ".java under */src/main/java");
        }
        String packageSuffix = "/" + String.join("/", reference.packages()) + "/" + reference.type() + ".java";
        String lastProblem = null;
        for (Path file : candidates) {
            String path = file.toString().replace('\\', '/');
            if (!reference.packages().isEmpty() && !path.endsWith(packageSuffix)) {
                lastProblem = reference.type() + " is not in package " + String.join(".", reference.packages());
                continue;
            }
            String source = read(file);
            String missing = missingFrom(source, reference);
            if (missing == null) {
                return Optional.empty();
            }
            lastProblem = missing + " (" + path + ")";
        }
        return Optional.of(lastProblem);
    }

    private static String missingFrom(String source, Reference reference) {
        for (String nested : reference.nested()) {
            if (!Pattern.compile("\\b(class|interface|record|enum)\\s+" + nested + "\\b").matcher(source).find()) {
                return "no nested type " + nested + " in " + reference.type();
            }
        }
        if (reference.member() != null && !Pattern.compile("\\b" + reference.member() + "\\b").matcher(source).find()) {
            return "no member " + reference.member() + " in " + reference.type();
        }
        return null;
    }

    /** Every .java file of a main source tree in the repository, by its type's simple name. */
    static Map<String, List<Path>> mainSourcesByType() throws IOException {
        Map<String, List<Path>> byType = new HashMap<>();
        Files.walkFileTree(REPOSITORY, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skip = name.equals("target") || name.equals("node_modules")
                        || (name.startsWith(".") && !dir.equals(REPOSITORY));
                return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                String path = file.toString().replace('\\', '/');
                String name = file.getFileName().toString();
                if (name.endsWith(".java") && path.contains("/src/main/java/")) {
                    byType.computeIfAbsent(name.substring(0, name.length() - ".java".length()), k -> new ArrayList<>())
                            .add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return byType;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

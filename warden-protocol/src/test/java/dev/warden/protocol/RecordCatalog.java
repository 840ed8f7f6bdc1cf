package dev.warden.protocol;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every wire record in {@code dev.warden.protocol}, found by scanning the compiled classes so a
 * record added later is covered by these tests without anyone remembering to list it.
 */
final class RecordCatalog {
    private RecordCatalog() {
    }

    static List<Class<? extends Record>> recordClasses() {
        Path packageDir;
        try {
            packageDir = Path.of(Record.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .resolve("dev/warden/protocol");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<Class<? extends Record>> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(packageDir)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".class")) {
                    Class<?> type = Class.forName("dev.warden.protocol." + name.substring(0, name.length() - 6));
                    if (Record.class.isAssignableFrom(type) && !type.isInterface()
                            && !Modifier.isAbstract(type.getModifiers())) {
                        found.add(type.asSubclass(Record.class));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        found.sort(Comparator.comparing(Class::getSimpleName));
        return found;
    }

    /** Calls the record's static {@code read(JuteReader)}, rethrowing whatever it threw unwrapped. */
    static Record read(Class<? extends Record> type, JuteReader in) {
        Method read;
        try {
            read = type.getMethod("read", JuteReader.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(type.getSimpleName() + " has no static read(JuteReader)", e);
        }
        try {
            return (Record) read.invoke(null, in);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new AssertionError(cause);
        }
    }

    static Record read(Class<? extends Record> type, byte[] encoded) {
        return read(type, new JuteReader(encoded));
    }

    /**
     * A value-based form of a record for equality checks: Java records compare byte[] fields by
     * identity, so buffers become hex strings and records become lists of their parts.
     */
    static Object canonical(Object value) {
        if (value instanceof byte[] buffer) {
            return "0x" + HexFormat.of().formatHex(buffer);
        }
        if (value instanceof List<?> list) {
            List<Object> parts = new ArrayList<>(list.size());
            list.forEach(element -> parts.add(canonical(element)));
            return parts;
        }
        if (value instanceof java.lang.Record record) {
            List<Object> parts = new ArrayList<>();
            parts.add(record.getClass().getSimpleName());
            for (RecordComponent component : record.getClass().getRecordComponents()) {
                try {
                    parts.add(component.getName() + "=" + canonical(component.getAccessor().invoke(record)));
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
            return parts.toString();
        }
        return value;
    }
}

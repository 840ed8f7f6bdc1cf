package dev.warden.server.common;

import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes JSON: the admin commands' answers indented as ZooKeeper's AdminServer indents them
 * ({@code "key" : value}, two spaces a level), so that people and scripts reading both see the
 * same text, or compact on one line ({@link #compact}) for files with a record per line. Values
 * are maps (in their iteration order), collections, strings, numbers, booleans and null; a NaN
 * or infinite double is written as null, anything else as its {@code toString()} in a string.
 */
public final class Json {
    private Json() {
    }

    /** {@code value} indented as ZooKeeper's AdminServer writes its answers. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        return out.toString();
    }

    /** {@code value} on one line, with no spaces between tokens. */
    public static String compact(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, COMPACT);
        return out.toString();
    }

    /** The depth that means "no indentation at any level". */
    private static final int COMPACT = -1;

    private static void write(StringBuilder out, Object value, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String text) {
            string(out, text);
        } else if (value instanceof Double d && (d.isNaN() || d.isInfinite())) {
            out.append("null");
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            object(out, map, depth);
        } else if (value instanceof Collection<?> list) {
            array(out, list, depth);
        } else {
            string(out, value.toString());
        }
    }

    private static void object(StringBuilder out, Map<?, ?> map, int depth) {
        if (depth == COMPACT) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                string(out, String.valueOf(entry.getKey()));
                out.append(':');
                write(out, entry.getValue(), COMPACT);
                if (entries.hasNext()) {
                    out.append(',');
                }
            }
            out.append('}');
            return;
        }
        if (map.isEmpty()) {
            out.append("{ }");
            return;
        }
        out.append("{\n");
        Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<?, ?> entry = entries.next();
            indent(out, depth + 1);
            string(out, String.valueOf(entry.getKey()));
            out.append(" : ");
            write(out, entry.getValue(), depth + 1);
            out.append(entries.hasNext() ? ",\n" : "\n");
        }
        indent(out, depth);
        out.append('}');
    }

    private static void array(StringBuilder out, Collection<?> list, int depth) {
        if (depth == COMPACT) {
            out.append('[');
            Iterator<?> items = list.iterator();
            while (items.hasNext()) {
                write(out, items.next(), COMPACT);
                if (items.hasNext()) {
                    out.append(',');
                }
            }
            out.append(']');
            return;
        }
        if (list.isEmpty()) {
            out.append("[ ]");
            return;
        }
        out.append("[ ");
        Iterator<?> items = list.iterator();
        while (items.hasNext()) {
            write(out, items.next(), depth);
            if (items.hasNext()) {
                out.append(", ");
            }
        }
        out.append(" ]");
    }

    private static void indent(StringBuilder out, int depth) {
        out.append("  ".repeat(depth));
    }

    private static void string(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}

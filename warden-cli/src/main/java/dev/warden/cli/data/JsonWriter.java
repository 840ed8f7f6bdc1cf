package dev.warden.cli.data;

import java.io.PrintWriter;
import java.util.ArrayDeque;

/**
 * A small streaming JSON writer, so the dump tools can write trees of millions of nodes without
 * holding them in memory. It tracks only where commas go; callers nest begin/end correctly.
 */
final class JsonWriter {
    private final PrintWriter out;
    /** One entry per open object or array: true once it holds a member. */
    private final ArrayDeque<boolean[]> open = new ArrayDeque<>();
    private boolean afterName;

    JsonWriter(PrintWriter out) {
        this.out = out;
    }

    JsonWriter beginObject() {
        separate();
        out.print('{');
        open.push(new boolean[1]);
        return this;
    }

    JsonWriter endObject() {
        open.pop();
        out.print('}');
        return this;
    }

    JsonWriter beginArray() {
        separate();
        out.print('[');
        open.push(new boolean[1]);
        return this;
    }

    JsonWriter endArray() {
        open.pop();
        out.print(']');
        return this;
    }

    JsonWriter name(String name) {
        separate();
        string(name);
        out.print(':');
        afterName = true;
        return this;
    }

    JsonWriter value(String value) {
        separate();
        if (value == null) {
            out.print("null");
        } else {
            string(value);
        }
        return this;
    }

    JsonWriter value(long value) {
        separate();
        out.print(value);
        return this;
    }

    JsonWriter value(boolean value) {
        separate();
        out.print(value);
        return this;
    }

    JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    /** Ends a top-level value with a newline (JSON lines). */
    void newline() {
        out.println();
    }

    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        boolean[] container = open.peek();
        if (container != null) {
            if (container[0]) {
                out.print(',');
            }
            container[0] = true;
        }
    }

    private void string(String text) {
        out.print('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.print("\\\"");
                case '\\' -> out.print("\\\\");
                case '\n' -> out.print("\\n");
                case '\r' -> out.print("\\r");
                case '\t' -> out.print("\\t");
                default -> {
                    if (c < 0x20) {
                        out.printf("\\u%04x", (int) c);
                    } else {
                        out.print(c);
                    }
                }
            }
        }
        out.print('"');
    }
}

package dev.warden.recipes.config;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;

/**
 * Turns a configuration value into node data and back. {@link #decode} may throw for data it
 * cannot read; the configuration recipes report that to their listener instead of a value.
 */
public interface ConfigCodec<T> {
    byte[] encode(T value);

    T decode(byte[] data);

    static ConfigCodec<String> utf8() {
        return of(value -> value.getBytes(StandardCharsets.UTF_8), data -> new String(data, StandardCharsets.UTF_8));
    }

    /** A decimal integer in UTF-8, surrounding whitespace ignored. */
    static ConfigCodec<Integer> integer() {
        return of(value -> Integer.toString(value).getBytes(StandardCharsets.UTF_8),
                data -> Integer.parseInt(new String(data, StandardCharsets.UTF_8).trim()));
    }

    /** A decimal long in UTF-8, surrounding whitespace ignored. */
    static ConfigCodec<Long> longInteger() {
        return of(value -> Long.toString(value).getBytes(StandardCharsets.UTF_8),
                data -> Long.parseLong(new String(data, StandardCharsets.UTF_8).trim()));
    }

    static <T> ConfigCodec<T> of(Function<T, byte[]> encoder, Function<byte[], T> decoder) {
        Objects.requireNonNull(encoder, "encoder");
        Objects.requireNonNull(decoder, "decoder");
        return new ConfigCodec<>() {
            @Override
            public byte[] encode(T value) {
                return encoder.apply(Objects.requireNonNull(value, "value"));
            }

            @Override
            public T decode(byte[] data) {
                return decoder.apply(data);
            }
        };
    }
}

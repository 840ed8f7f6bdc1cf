package dev.warden.bench.resources;

import java.util.Locale;

/** Which server a probe measures. */
public enum Flavour {
    WARDEN,
    APACHE;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Flavour parse(String text) {
        for (Flavour f : values()) {
            if (f.cliName().equals(text)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown server flavour '" + text + "': expected warden or apache");
    }
}

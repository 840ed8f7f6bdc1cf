package dev.warden.server.security;

import dev.warden.protocol.tls.StoreFile;
import dev.warden.protocol.tls.TlsSettings;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS context of a port, re-read when its key or trust store file changes: a new
 * connection looks at the files' size and modification time (at most once per
 * {@code checkIntervalMs}) and, if they changed, gets a context built from the new files.
 * Open connections keep the context they started with. A store that cannot be read (half
 * written, a wrong password) keeps the previous context, with an ERROR naming the file.
 */
public final class ReloadingSslContext {
    private static final Logger LOG = LoggerFactory.getLogger(ReloadingSslContext.class);

    private final TlsSettings settings;
    private final Function<TlsSettings, SslContext> factory;
    private final boolean reload;
    private final long checkIntervalMs;
    private final LongSupplier clockMs;
    private final List<Path> files = new ArrayList<>();
    private volatile SslContext current;
    private List<Object> stamps;
    private long lastCheckMs;

    /** Builds the first context now, so bad settings stop the server at start. */
    public ReloadingSslContext(TlsSettings settings, Function<TlsSettings, SslContext> factory, boolean reload,
                               long checkIntervalMs, LongSupplier clockMs) {
        this.settings = settings;
        this.factory = factory;
        this.reload = reload;
        this.checkIntervalMs = checkIntervalMs;
        this.clockMs = clockMs;
        for (StoreFile store : new StoreFile[] {settings.keyStore(), settings.trustStore()}) {
            if (store != null) {
                files.add(store.location());
            }
        }
        this.stamps = stamps();
        this.current = factory.apply(settings);
        this.lastCheckMs = clockMs.getAsLong();
    }

    public TlsSettings settings() {
        return settings;
    }

    /** The context for a new connection. */
    public SslContext current() {
        if (reload) {
            maybeReload();
        }
        return current;
    }

    private synchronized void maybeReload() {
        long now = clockMs.getAsLong();
        if (now - lastCheckMs < checkIntervalMs) {
            return;
        }
        lastCheckMs = now;
        List<Object> seen = stamps();
        if (seen.equals(stamps)) {
            return;
        }
        stamps = seen;
        try {
            current = factory.apply(settings);
            LOG.info("Re-read the {}* key and trust stores {}: new TLS connections use them", settings.prefix(), files);
        } catch (RuntimeException e) {
            LOG.error("Cannot re-read the {}* stores {}: {}; new TLS connections keep the previous certificates",
                    settings.prefix(), files, e.getMessage());
        }
    }

    private List<Object> stamps() {
        List<Object> result = new ArrayList<>();
        for (Path file : files) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                result.add(attributes.lastModifiedTime() + "/" + attributes.size());
            } catch (IOException missing) {
                result.add(Objects.toString(null));
            }
        }
        return result;
    }
}

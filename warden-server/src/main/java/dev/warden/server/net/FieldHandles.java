package dev.warden.server.net;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * VarHandles on the volatile fields of this package's per-connection objects: atomic updates of a
 * plain field, where an AtomicInteger or a LongAdder would be one more object on every connection.
 */
final class FieldHandles {
    private FieldHandles() {
    }

    /** The handle on {@code owner}'s field {@code name} of type {@code type}; a missing field fails class init. */
    static VarHandle of(MethodHandles.Lookup lookup, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(lookup.lookupClass(), name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}

package dev.warden.recipes.config;

import java.util.Optional;

/**
 * One observed state of a configuration node.
 *
 * @param value        the decoded value, empty when the node does not exist
 * @param version      the node's data version, -1 when it does not exist; within one life of
 *                     the node each setData adds one, so a jump of more than one means the
 *                     client skipped a value
 * @param modifiedZxid the zxid of the write that produced this value, -1 when the node does
 *                     not exist; strictly increasing over the present values one listener sees
 */
public record ConfigSnapshot<T>(Optional<T> value, int version, long modifiedZxid) {
    public boolean exists() {
        return value.isPresent();
    }

    static <T> ConfigSnapshot<T> absent() {
        return new ConfigSnapshot<>(Optional.empty(), -1, -1);
    }
}

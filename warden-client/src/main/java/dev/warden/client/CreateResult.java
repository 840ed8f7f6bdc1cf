package dev.warden.client;

import dev.warden.protocol.Stat;

/**
 * The outcome of a create.
 *
 * @param path the created path relative to the chroot (with the sequential suffix, if any)
 * @param stat the new node's Stat, or null when the plain create opcode was used
 */
public record CreateResult(String path, Stat stat) {
}

package dev.warden.client;

import dev.warden.protocol.Stat;

/** A node's data (null if the node holds null) together with its Stat, read atomically. */
public record DataAndStat(byte[] data, Stat stat) {
}

package dev.warden.client;

import dev.warden.protocol.Stat;
import java.util.List;

/** A node's child names (not full paths; unordered) together with its Stat. */
public record ChildrenAndStat(List<String> children, Stat stat) {
}

package dev.warden.client;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Stat;
import java.util.List;

/** A node's ACL together with its Stat (aversion is the version setACL expects). */
public record AclAndStat(List<Acl> acl, Stat stat) {
}

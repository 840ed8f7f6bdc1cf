package dev.warden.recipes.group;

import java.util.Arrays;

/**
 * One member of a group as read from its node.
 *
 * @param name      the member node's name (with the sequence suffix for sequential members)
 * @param data      what the member published when it joined
 * @param sessionId the session that owns the member's ephemeral node
 * @param joinZxid  the zxid of the create: members ordered by it are in join order
 */
public record MemberNode(String name, byte[] data, long sessionId, long joinZxid) {
    public MemberNode {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MemberNode member && name.equals(member.name) && Arrays.equals(data, member.data)
                && sessionId == member.sessionId && joinZxid == member.joinZxid;
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Long.hashCode(joinZxid);
    }

    @Override
    public String toString() {
        return "MemberNode[" + name + ", session 0x" + Long.toHexString(sessionId) + ", " + data.length + " bytes]";
    }
}

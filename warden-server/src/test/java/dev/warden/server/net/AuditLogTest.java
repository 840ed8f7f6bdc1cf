package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.warden.protocol.Acl;
import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.Id;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.SetACLRequest;
import dev.warden.protocol.SetDataRequest;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.pipeline.Request;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Audit lines in ZooKeeper's keys, order and values. Users come in the order of the connection's
 * identities, which is ZooKeeper's (jute Id hash order).
 */
class AuditLogTest {
    private final AuthIdentities who = new AuthIdentities("192.168.1.2");

    {
        who.add(new Id("digest", "zkcli:abcdefghijklmnopqrstuvwxyz0="));
    }

    @Test
    void aCreateNamesTheSessionUsersAddressPathAndType() {
        Request create = new Request(null, 0x19344730000L, 1, OpCode.CREATE,
                new CreateRequest("/a", new byte[0], List.of(), 0));
        assertEquals("session=0x19344730000\tuser=zkcli,192.168.1.2\tip=192.168.1.2\toperation=create\tznode=/a"
                + "\tznode_type=persistent\tresult=success", AuditLog.line(0x19344730000L, who, "192.168.1.2", create,
                ErrorCode.OK.code()));
    }

    @Test
    void aFailedSetDataAndASetAclWithItsAcl() {
        Request set = new Request(null, 1, 2, OpCode.SET_DATA, new SetDataRequest("/a", new byte[1], 3));
        assertEquals("session=0x1\tuser=zkcli,192.168.1.2\tip=192.168.1.2\toperation=setData\tznode=/a"
                + "\tresult=failure", AuditLog.line(1, who, "192.168.1.2", set, ErrorCode.BAD_VERSION.code()));
        Request acl = new Request(null, 1, 3, OpCode.SET_ACL, new SetACLRequest("/a",
                List.of(new Acl(31, new Id("world", "anyone"))), -1));
        assertEquals("session=0x1\tuser=zkcli,192.168.1.2\tip=192.168.1.2\toperation=setAcl\tznode=/a"
                + "\tacl=world:anyone:cdrwa\tresult=success", AuditLog.line(1, who, "192.168.1.2", acl, 0));
    }

    @Test
    void readsAreNotAudited() {
        assertNull(AuditLog.line(1, who, "192.168.1.2", new Request(null, 1, 4, OpCode.GET_DATA,
                new GetDataRequest("/a", false)), 0));
    }
}

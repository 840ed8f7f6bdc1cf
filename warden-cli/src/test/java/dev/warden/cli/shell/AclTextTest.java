package dev.warden.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class AclTextTest {
    @Test
    void parsesSeveralEntriesAndIdsContainingColons() {
        List<Acl> acl = AclText.parse("world:anyone:r,digest:bob:X/y+z=:cdrwa,ip:10.0.0.0/8:rw");
        assertEquals(List.of(
                new Acl(Perms.READ, Perms.ANYONE),
                new Acl(Perms.ALL, new Id("digest", "bob:X/y+z=")),
                new Acl(Perms.READ | Perms.WRITE, new Id("ip", "10.0.0.0/8"))), acl);
    }

    @Test
    void rejectsMalformedEntries() {
        assertThrows(ShellException.class, () -> AclText.parse("world:anyone"));
        assertThrows(ShellException.class, () -> AclText.parse(":anyone:r"));
        assertThrows(ShellException.class, () -> AclText.parse("world:anyone:rq"));
        assertThrows(ShellException.class, () -> AclText.parse("world:anyone:"));
        assertThrows(ShellException.class, () -> AclText.parse("world:anyone:r,,"));
    }

    @Test
    void formatsEntriesAsZkCliDoes() {
        assertEquals(List.of("'digest,'bob:hash", ": cdrwa"), AclText.formatEntry(new Acl(Perms.ALL, new Id("digest", "bob:hash"))));
        assertEquals("rw", AclText.formatPerms(Perms.WRITE | Perms.READ));
    }

    @Property
    void formattedPermsParseBackToTheSameBits(@ForAll @IntRange(min = 1, max = 31) int perms) {
        List<Acl> parsed = AclText.parse("world:anyone:" + AclText.formatPerms(perms));
        assertEquals(perms, parsed.get(0).perms());
    }
}

package dev.warden.cli.shell;

import dev.warden.client.BlockingClient;
import dev.warden.protocol.Acl;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Perms;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/** {@code create [-s] [-e] [-c] [-t ttl] path [data] [acl]}: the flags pick the create mode. */
final class CreateCommand {
    private CreateCommand() {
    }

    static void run(ParsedArgs args, ShellSession session) {
        CreateMode mode = mode(args);
        String path = args.arg(0);
        // Without data the node holds null (get prints "null"), as with zkCli.
        byte[] data = args.count() > 1 ? args.arg(1).getBytes(StandardCharsets.UTF_8) : null;
        List<Acl> acl = args.count() > 2 ? AclText.parse(args.arg(2)) : Perms.OPEN_ACL_UNSAFE;
        BlockingClient client = session.client();
        String created = mode.isTtl()
                ? client.createTtl(path, data, acl, mode, Duration.ofMillis(ttlMs(args))).path()
                : client.create(path, data, acl, mode);
        session.out().println("Created " + created);
    }

    static CreateMode mode(ParsedArgs args) {
        boolean sequential = args.has('s');
        boolean ephemeral = args.has('e');
        boolean container = args.has('c');
        boolean ttl = args.has('t');
        if (container && (sequential || ephemeral)) {
            throw new ShellException("-c cannot be combined with -s or -e: containers cannot be ephemeral or sequential");
        }
        if (ttl && ephemeral) {
            throw new ShellException("TTLs cannot be used with ephemeral znodes");
        }
        if (ttl && container) {
            throw new ShellException("TTLs cannot be used with container znodes");
        }
        if (container) {
            return CreateMode.CONTAINER;
        }
        if (ttl) {
            return sequential ? CreateMode.PERSISTENT_SEQUENTIAL_WITH_TTL : CreateMode.PERSISTENT_WITH_TTL;
        }
        if (ephemeral) {
            return sequential ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.EPHEMERAL;
        }
        return sequential ? CreateMode.PERSISTENT_SEQUENTIAL : CreateMode.PERSISTENT;
    }

    private static long ttlMs(ParsedArgs args) {
        String text = args.value('t');
        try {
            long ttlMs = Long.parseLong(text);
            if (ttlMs <= 0) {
                throw new ShellException("TTL must be positive: " + text);
            }
            return ttlMs;
        } catch (NumberFormatException e) {
            throw new ShellException("TTL must be a number of milliseconds: " + text);
        }
    }
}

package dev.warden.cli.shell;

import dev.warden.client.AclAndStat;
import dev.warden.client.BlockingClient;
import dev.warden.protocol.Acl;
import dev.warden.protocol.ClientInfo;
import dev.warden.protocol.Stat;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Access control: getAcl, setAcl, addauth, whoami. */
final class AclCommands {
    private AclCommands() {
    }

    static void register(CommandTable table) {
        table.add(new CommandDef("getAcl", "s", "", 1, 1, "getAcl [-s] path", AclCommands::getAcl));
        table.add(new CommandDef("setAcl", "sR", "v", 2, 2, "setAcl [-s] [-v version] [-R] path acl",
                AclCommands::setAcl));
        table.add(new CommandDef("addauth", "", "", 2, 2, "addauth scheme auth", (args, session) ->
                session.client().addAuth(args.arg(0), args.arg(1).getBytes(StandardCharsets.UTF_8))));
        table.add(new CommandDef("whoami", "", "", 0, 0, "whoami", AclCommands::whoAmI));
    }

    private static void getAcl(ParsedArgs args, ShellSession session) {
        AclAndStat result = session.client().getACL(args.arg(0));
        PrintStream out = session.out();
        for (Acl entry : result.acl()) {
            AclText.formatEntry(entry).forEach(out::println);
        }
        if (args.has('s')) {
            Formats.printStat(out, result.stat());
        }
    }

    /** With -R the ACL (and -v, if given) applies to every node of the subtree, parents first. */
    private static void setAcl(ParsedArgs args, ShellSession session) {
        String path = args.arg(0);
        List<Acl> acl = AclText.parse(args.arg(1));
        int aclVersion = NodeCommands.versionOption(args);
        BlockingClient client = session.client();
        List<String> targets = args.has('R') ? Subtree.preOrder(client, path) : List.of(path);
        Stat rootStat = null;
        for (String target : targets) {
            Stat stat = client.setACL(target, acl, aclVersion);
            if (rootStat == null) {
                rootStat = stat;
            }
        }
        if (args.has('s')) {
            Formats.printStat(session.out(), rootStat);
        }
    }

    private static void whoAmI(ParsedArgs args, ShellSession session) {
        List<ClientInfo> identities = session.client().whoAmI();
        PrintStream out = session.out();
        out.println("Auth scheme: User");
        for (ClientInfo identity : identities) {
            out.println(identity.authScheme() + ": " + identity.user());
        }
    }
}

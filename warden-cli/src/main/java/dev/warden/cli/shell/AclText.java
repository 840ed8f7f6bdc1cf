package dev.warden.cli.shell;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import java.util.ArrayList;
import java.util.List;

/**
 * ACLs as the shell reads and writes them: {@code scheme:id:perms} entries separated by
 * commas, e.g. {@code world:anyone:cdrwa,digest:bob:Vk0mv...=:r}. The id may itself contain
 * colons (digest ids do), so the scheme ends at the first colon and the perms start after the
 * last one.
 */
public final class AclText {
    private static final String PERM_LETTERS = "rwcda";
    private static final int[] PERM_BITS = {Perms.READ, Perms.WRITE, Perms.CREATE, Perms.DELETE, Perms.ADMIN};

    private AclText() {
    }

    static List<Acl> parse(String text) {
        List<Acl> acl = new ArrayList<>();
        for (String entry : text.split(",", -1)) {
            int firstColon = entry.indexOf(':');
            int lastColon = entry.lastIndexOf(':');
            if (firstColon <= 0 || firstColon == lastColon) {
                throw new ShellException("Invalid ACL: " + entry + " does not have the form scheme:id:perm");
            }
            Id id = new Id(entry.substring(0, firstColon), entry.substring(firstColon + 1, lastColon));
            acl.add(new Acl(parsePerms(entry.substring(lastColon + 1), entry), id));
        }
        return acl;
    }

    private static int parsePerms(String letters, String entry) {
        if (letters.isEmpty()) {
            throw new ShellException("Invalid ACL: " + entry + " grants no permission");
        }
        int perms = 0;
        for (char letter : letters.toCharArray()) {
            int index = PERM_LETTERS.indexOf(letter);
            if (index < 0) {
                throw new ShellException("Invalid ACL: unknown permission '" + letter + "' in " + entry
                        + " (use letters of " + PERM_LETTERS + ")");
            }
            perms |= PERM_BITS[index];
        }
        return perms;
    }

    /** Perms as zkCli prints them: letters in the order c d r w a. */
    public static String formatPerms(int perms) {
        StringBuilder text = new StringBuilder();
        appendIf(text, perms, Perms.CREATE, 'c');
        appendIf(text, perms, Perms.DELETE, 'd');
        appendIf(text, perms, Perms.READ, 'r');
        appendIf(text, perms, Perms.WRITE, 'w');
        appendIf(text, perms, Perms.ADMIN, 'a');
        return text.toString();
    }

    private static void appendIf(StringBuilder text, int perms, int bit, char letter) {
        if ((perms & bit) != 0) {
            text.append(letter);
        }
    }

    /** The two lines zkCli prints per entry: {@code 'scheme,'id} then {@code : perms}. */
    static List<String> formatEntry(Acl entry) {
        return List.of("'" + entry.id().scheme() + ",'" + entry.id().id(), ": " + formatPerms(entry.perms()));
    }
}

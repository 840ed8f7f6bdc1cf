package dev.warden.recipes.twophase;

import dev.warden.recipes.support.EnsurePath;
import java.nio.charset.StandardCharsets;

/**
 * Where a transaction keeps its state. {@code <tx>} holds the payload; {@code <tx>/votes/<site>}
 * is created empty by the coordinator, set to {@value #JOINED} by the site when it takes part
 * and then to its vote, each step checked against the version, so a vote is written once;
 * {@code <tx>/alive/<site>} is the site's ephemeral node, created in the same transaction as
 * {@value #JOINED}; {@code <tx>/outcome} is created once by whoever first knows the outcome.
 */
final class TxLayout {
    static final String JOINED = "JOINED";
    static final int VERSION_CREATED = 0;
    static final int VERSION_JOINED = 1;

    private TxLayout() {
    }

    static String votes(String tx) {
        return EnsurePath.child(tx, "votes");
    }

    static String vote(String tx, String site) {
        return EnsurePath.child(votes(tx), site);
    }

    static String alive(String tx) {
        return EnsurePath.child(tx, "alive");
    }

    static String alive(String tx, String site) {
        return EnsurePath.child(alive(tx), site);
    }

    static String outcome(String tx) {
        return EnsurePath.child(tx, "outcome");
    }

    static byte[] encode(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String decode(byte[] data) {
        return new String(data, StandardCharsets.UTF_8);
    }

    static void checkSiteName(String site) {
        if (site == null || site.isEmpty() || site.contains("/")) {
            throw new IllegalArgumentException("bad site name: '" + site + "'");
        }
    }
}

package dev.warden.cli.ensemble;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What one key's writes came to. Each write stores {@code "<path>#<seq>"} (seq rising per key),
 * so the final value names the write that produced it and a torn value cannot pass for a whole
 * one. Writes whose reply never came (connection loss, expiry) stay possible until a later
 * write of the same key is acknowledged, because the later write overwrites them either way.
 */
final class KeyLedger {
    final String path;
    /** Highest acknowledged sequence, or -1 if no write of this key was ever acknowledged. */
    private long ackedSeq = -1;
    /** Unanswered writes above ackedSeq: each may or may not have happened. */
    private final TreeSet<Long> unknownSeqs = new TreeSet<>();
    /** Whether the node is known to exist (its create was acknowledged or found applied). */
    boolean created;
    private long nextSeq;

    KeyLedger(String path) {
        this.path = path;
    }

    long nextSeq() {
        return nextSeq++;
    }

    byte[] value(long seq) {
        return (path + "#" + seq).getBytes(StandardCharsets.UTF_8);
    }

    void acknowledged(long seq) {
        ackedSeq = Math.max(ackedSeq, seq);
        unknownSeqs.headSet(seq, true).clear();
    }

    void unknown(long seq) {
        unknownSeqs.add(seq);
    }

    long ackedSeq() {
        return ackedSeq;
    }

    int unknownCount() {
        return unknownSeqs.size();
    }

    /**
     * Problems with the value found on a member ({@code null} data: the node is absent); empty
     * if it is the last acknowledged write or a whole later unanswered one.
     */
    List<String> check(byte[] found) {
        List<String> problems = new ArrayList<>();
        if (found == null) {
            if (ackedSeq >= 0) {
                problems.add(path + ": missing, but write #" + ackedSeq + " was acknowledged");
            }
            return problems;
        }
        String text = new String(found, StandardCharsets.UTF_8);
        String prefix = path + "#";
        long seq;
        try {
            if (!text.startsWith(prefix)) {
                throw new NumberFormatException("wrong key");
            }
            seq = Long.parseLong(text.substring(prefix.length()));
        } catch (NumberFormatException e) {
            problems.add(path + ": holds '" + text + "', not a whole value of this key");
            return problems;
        }
        boolean possible = seq == ackedSeq || (seq > ackedSeq && unknownSeqs.contains(seq));
        if (!possible) {
            problems.add(path + ": holds write #" + seq + " but the last acknowledged is #" + ackedSeq
                    + " and the unanswered ones after it are " + unknownSeqs);
        }
        return problems;
    }
}

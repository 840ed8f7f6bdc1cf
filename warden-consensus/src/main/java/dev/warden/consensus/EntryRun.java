package dev.warden.consensus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Log entries held in memory in zxid order, appended at the tail and dropped from the head (or
 * cut back from the tail, as a log is truncated): the entries a leader proposed until they are
 * both committed and on its own disk, those a member logged until it hands them out to be
 * applied, and the server's window of its newest log entries. An array with a moving head does
 * what a sorted map would, without a tree node and a boxed key per entry; lookups are binary
 * searches. Not thread-safe.
 */
public final class EntryRun {
    private final ArrayList<Entry> entries = new ArrayList<>();
    /** Index of the first entry still held; those before it are dropped (null). */
    private int head;

    /** A run holding {@code entries}, which must be in ascending zxid order. */
    public static EntryRun of(Iterable<Entry> entries) {
        EntryRun run = new EntryRun();
        entries.forEach(run::append);
        return run;
    }

    /** Adds {@code entry} after every entry held; its zxid must be above theirs. */
    public void append(Entry entry) {
        if (size() > 0 && entry.zxid() <= last().zxid()) {
            throw Invariants.violated("entry " + Zxid.hex(entry.zxid()) + " appended after " + Zxid.hex(last().zxid()));
        }
        entries.add(entry);
    }

    public int size() {
        return entries.size() - head;
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    public boolean contains(long zxid) {
        return search(zxid) >= 0;
    }

    /** The greatest zxid held at or below {@code zxid}, or -1 if none. */
    public long floorZxid(long zxid) {
        int at = search(zxid);
        if (at >= 0) {
            return zxid;
        }
        int insertion = -at - 1;
        return insertion > head ? entries.get(insertion - 1).zxid() : -1;
    }

    /** The greatest zxid held below {@code zxid}, or -1 if none. */
    public long lowerZxid(long zxid) {
        return floorZxid(zxid - 1);
    }

    /** The entries with zxids in ({@code afterZxid}, {@code upToZxid}], in order: a view, valid until the run changes. */
    public List<Entry> between(long afterZxid, long upToZxid) {
        int from = firstAbove(afterZxid);
        int to = firstAbove(upToZxid);
        return from >= to ? List.of() : Collections.unmodifiableList(entries.subList(from, to));
    }

    /** Drops every entry with a zxid at or below {@code zxid}; returns them, in order. */
    public List<Entry> takeUpTo(long zxid) {
        int to = firstAbove(zxid);
        if (to <= head) {
            return List.of();
        }
        List<Entry> taken = new ArrayList<>(entries.subList(head, to));
        dropBefore(to);
        return taken;
    }

    /** Drops every entry with a zxid at or below {@code zxid}. */
    public void dropUpTo(long zxid) {
        dropBefore(firstAbove(zxid));
    }

    /** Drops the held entries before index {@code to}. */
    private void dropBefore(int to) {
        for (int i = head; i < to; i++) {
            entries.set(i, null);
        }
        head = Math.max(head, to);
        if (head == entries.size()) {
            entries.clear();
            head = 0;
        } else if (head > 1024 && head > entries.size() / 2) {
            // compact once the dropped prefix is the larger part: each entry moves once on average
            entries.subList(0, head).clear();
            head = 0;
        }
    }

    /** Removes and returns the entry with the lowest zxid, or null if none is held. */
    public Entry pollFirst() {
        if (isEmpty()) {
            return null;
        }
        Entry first = entries.get(head);
        dropBefore(head + 1);
        return first;
    }

    /** Drops every entry with a zxid above {@code zxid}; returns them, in order. */
    public List<Entry> takeAfter(long zxid) {
        int from = Math.max(head, firstAbove(zxid));
        if (from >= entries.size()) {
            return List.of();
        }
        List<Entry> taken = new ArrayList<>(entries.subList(from, entries.size()));
        entries.subList(from, entries.size()).clear();
        if (head == entries.size()) {
            clear();
        }
        return taken;
    }

    public void clear() {
        entries.clear();
        head = 0;
    }

    private Entry last() {
        return entries.get(entries.size() - 1);
    }

    /** Index of the first held entry with a zxid above {@code zxid} (the end if none). */
    private int firstAbove(long zxid) {
        int at = search(zxid);
        return at >= 0 ? at + 1 : -at - 1;
    }

    /** Binary search over the held entries: the index of {@code zxid}, else -(insertion point) - 1. */
    private int search(long zxid) {
        int low = head;
        int high = entries.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long midZxid = entries.get(mid).zxid();
            if (midZxid < zxid) {
                low = mid + 1;
            } else if (midZxid > zxid) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }
}

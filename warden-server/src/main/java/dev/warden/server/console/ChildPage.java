package dev.warden.server.console;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;

/**
 * One page of a node's children in name order, after a cursor: the page holds the first
 * {@code limit} names greater than {@code after} (and starting with {@code prefix}), so a node
 * with 100,000 children is shown a page at a time and the browser never receives them all. The
 * selection keeps a heap of {@code limit} names instead of sorting every name.
 *
 * @param names    the page, in order
 * @param matching how many children match the prefix (all of them without one)
 * @param next     the cursor of the next page (the page's last name), or null when this is the last
 */
record ChildPage(List<String> names, int matching, String next) {
    static final int MAX_LIMIT = 500;

    static ChildPage of(List<String> children, String after, String prefix, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT + ", not " + limit);
        }
        PriorityQueue<String> smallest = new PriorityQueue<>(limit + 1, Collections.reverseOrder());
        int matching = 0;
        int afterCursor = 0;
        for (String name : children) {
            if (!prefix.isEmpty() && !name.startsWith(prefix)) {
                continue;
            }
            matching++;
            if (after != null && name.compareTo(after) <= 0) {
                continue;
            }
            afterCursor++;
            if (smallest.size() < limit) {
                smallest.add(name);
            } else if (name.compareTo(smallest.peek()) < 0) {
                smallest.poll();
                smallest.add(name);
            }
        }
        List<String> page = new ArrayList<>(smallest);
        Collections.sort(page);
        String next = afterCursor > page.size() ? page.get(page.size() - 1) : null;
        return new ChildPage(page, matching, next);
    }
}

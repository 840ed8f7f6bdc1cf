package dev.warden.state.watch;

/**
 * The three figures `wchs` prints ("N connections watching M paths", "Total watches:T"),
 * taken, as in ZooKeeper, from the data table only: data, persistent and recursive watches.
 *
 * @param watchers distinct watchers holding a data-table watch
 * @param paths    distinct paths with a data-table watch
 * @param watches  (path, watcher) pairs in the data table
 */
public record DataTableSummary(int watchers, int paths, int watches) {
}

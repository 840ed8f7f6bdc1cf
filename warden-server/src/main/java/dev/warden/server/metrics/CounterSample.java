package dev.warden.server.metrics;

/**
 * One unlabelled counter of the server, exported under {@code name} itself: as ZooKeeper's
 * Prometheus provider exports its counters (Prometheus's Java client 0.9, which adds no
 * {@code _total}).
 *
 * @param name  the series name, also the family's name in its HELP and TYPE lines
 * @param help  the HELP text
 * @param value the count
 */
record CounterSample(String name, String help, double value) {
}

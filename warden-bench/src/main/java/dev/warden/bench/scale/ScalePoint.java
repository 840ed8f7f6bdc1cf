package dev.warden.bench.scale;

import dev.warden.cli.cluster.Flavour;

/**
 * One server's figures at one point of a dimension.
 *
 * @param x               the dimension's value (sessions, watchers, bytes)
 * @param throughput      per second, in the dimension's unit (operations, or notifications)
 * @param p99Us           the dimension's latency figure in microseconds
 * @param failure         why the point has no figures, or null
 */
public record ScalePoint(ScaleDimension dimension, long x, Flavour flavour, double throughput, long p50Us, long p99Us,
                         String failure) {
    public static ScalePoint failed(ScaleDimension dimension, long x, Flavour flavour, String why) {
        return new ScalePoint(dimension, x, flavour, 0, 0, 0, why);
    }

    public boolean measured() {
        return failure == null;
    }
}

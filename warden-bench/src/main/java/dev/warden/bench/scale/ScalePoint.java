package dev.warden.bench.scale;

import dev.warden.cli.cluster.Flavour;

/**
 * One server's figures at one point of a dimension.
 *
 * @param x               the dimension's value (sessions, watchers, bytes)
 * @param throughput      per second, in the dimension's unit (operations, or notifications)
 * @param p99Us           the dimension's latency figure in microseconds
 * @param extra           the dimension's third figure ({@link ScaleDimension#extraLabel}), NaN when it has none
 * @param failure         why the point has no figures, or null
 */
public record ScalePoint(ScaleDimension dimension, long x, Flavour flavour, double throughput, long p50Us, long p99Us,
                         double extra, String failure) {
    /** A point of a dimension without a third figure. */
    public ScalePoint(ScaleDimension dimension, long x, Flavour flavour, double throughput, long p50Us, long p99Us,
                      String failure) {
        this(dimension, x, flavour, throughput, p50Us, p99Us, Double.NaN, failure);
    }

    public static ScalePoint failed(ScaleDimension dimension, long x, Flavour flavour, String why) {
        return new ScalePoint(dimension, x, flavour, 0, 0, 0, why);
    }

    public boolean measured() {
        return failure == null;
    }
}

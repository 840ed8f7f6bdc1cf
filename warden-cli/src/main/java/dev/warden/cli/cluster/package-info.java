/**
 * Local multi-process ensembles for fault tests and benchmarks.
 *
 * <pre>{@code
 * ClusterSpec spec = ClusterSpec.builder(Flavour.APACHE, baseDir, classPathWithZooKeeperJars).build();
 * try (LocalCluster cluster = LocalCluster.create(spec)) {
 *     cluster.startAll();
 *     int leader = cluster.awaitQuorum(Duration.ofSeconds(60));
 *     cluster.kill9(leader);
 *     int next = cluster.awaitLeaderOtherThan(leader, Duration.ofSeconds(60));
 *     cluster.start(leader);
 *     cluster.awaitQuorum(Duration.ofSeconds(60));
 * }
 * }</pre>
 *
 * The code launches members by main class and classpath only, so it needs neither Warden's
 * server classes nor ZooKeeper's; a member's mode comes from its {@code srvr} answer.
 */
package dev.warden.cli.cluster;

package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.WardenServer;
import dev.warden.server.config.MetricsSettings;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every series ZooKeeper's Grafana dashboard (grafana.com 10465) queries, as listed in
 * grafana-10465-metrics.txt, against /metrics of a standalone server and of each member of a
 * three-member ensemble: what the list says is exported is there under the name the panel
 * queries (counters with their TYPE line saying so and no _total series; summaries as the
 * _count and _sum ZooKeeper 3.9 gives them), and what it says is absent is indeed absent, so the
 * list (and MONITORING.md, which is written from it) stays true when metrics are added.
 */
class GrafanaDashboardMetricsTest {
    private static final MetricsSettings PROMETHEUS = MetricsSettings.DEFAULTS.withPrometheus(true).withHttpPort(0);

    record Series(String name, String panel, String where) {
        /** The sample names that must be present for this series where it is exported. */
        List<String> exportedAs() {
            return switch (where) {
                case "summary" -> List.of(name + "_count", name + "_sum");
                default -> List.of(name);
            };
        }

        boolean absent() {
            return where.startsWith("absent:");
        }
    }

    static List<Series> dashboardSeries() throws IOException {
        List<Series> series = new ArrayList<>();
        try (InputStream in = GrafanaDashboardMetricsTest.class.getResourceAsStream("/grafana-10465-metrics.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\\|", 3);
                assertEquals(3, parts.length, line);
                Set<String> known = Set.of("all", "member", "leader", "counter", "summary");
                assertTrue(known.contains(parts[2]) || parts[2].matches("absent: .+"), line);
                series.add(new Series(parts[0], parts[1], parts[2]));
            }
        }
        return series;
    }

    @Test
    void aStandaloneServerExportsWhatTheListSays(@TempDir Path dir) throws Exception {
        List<Series> series = dashboardSeries();
        ServerConfig config = ServerConfig.builder().dataDir(dir).clientPort(0).metrics(PROMETHEUS).build();
        try (WardenServer server = WardenServer.start(config)) {
            check(series, scrape(server.metricsPort()), "standalone", false);
        }
    }

    @Test
    void everyMemberExportsWhatTheListSays(@TempDir Path dir) throws Exception {
        List<Series> series = dashboardSeries();
        try (TestEnsemble ensemble = new TestEnsemble(dir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new)) {
            ensemble.configureAll(b -> b.metrics(PROMETHEUS));
            ensemble.startAll();
            ensemble.awaitAllServing(20_000);
            for (Map.Entry<Long, WardenServer> member : ensemble.servers().entrySet()) {
                boolean leader = member.getValue().member().role() == Role.LEADING;
                Scrape samples = scrape(member.getValue().metricsPort());
                check(series, samples, "member " + member.getKey() + (leader ? " (leader)" : ""), true);
                if (leader) {
                    checkLeaderOnly(series, samples, member.getKey());
                }
            }
        }
    }

    private static void check(List<Series> series, Scrape scrape, String who, boolean member) {
        Set<String> samples = scrape.samples();
        Set<String> missing = new TreeSet<>();
        Set<String> unexpected = new TreeSet<>();
        for (Series each : series) {
            if (each.absent()) {
                if (samples.contains(each.name()) || samples.contains(each.name() + "_total")) {
                    unexpected.add(each.name() + " (listed absent: update grafana-10465-metrics.txt and MONITORING.md)");
                }
            } else if (each.where().equals("leader") || (each.where().equals("member") && !member)) {
                continue;
            } else {
                for (String name : each.exportedAs()) {
                    if (!samples.contains(name)) {
                        missing.add(name + " (panel " + each.panel() + ")");
                    }
                }
                if (each.where().equals("counter")) {
                    // ZooKeeper 3.9's provider (Java client 0.9) names a counter's family and sample alike
                    if (!"counter".equals(scrape.types().get(each.name()))) {
                        unexpected.add(each.name() + " (listed counter, TYPE " + scrape.types().get(each.name()) + ")");
                    }
                    if (samples.contains(each.name() + "_total")) {
                        unexpected.add(each.name() + "_total (ZooKeeper's provider exports the counter without _total)");
                    }
                }
                if (each.where().equals("summary") && samples.contains(each.name())) {
                    // the bare name of a summary without quantiles has no series, in ZooKeeper 3.9 too
                    unexpected.add(each.name() + " (listed summary, exported under its bare name)");
                }
            }
        }
        assertEquals(Set.of(), missing, who + " lacks series the dashboard queries");
        assertEquals(Set.of(), unexpected, who);
    }

    private static void checkLeaderOnly(List<Series> series, Scrape scrape, long id) {
        Set<String> samples = scrape.samples();
        Set<String> missing = new TreeSet<>();
        for (Series each : series) {
            if (each.where().equals("leader") && !samples.contains(each.name())) {
                missing.add(each.name() + " (panel " + each.panel() + ")");
            }
        }
        assertEquals(Set.of(), missing, "leader " + id + " lacks leader series the dashboard queries");
    }

    /** A scrape's sample names, each without its labels, and the TYPE of each family. */
    record Scrape(Set<String> samples, Map<String, String> types) {
    }

    private static Scrape scrape(int port) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        Set<String> names = new HashSet<>();
        Map<String, String> types = new HashMap<>();
        for (String line : response.body().lines().toList()) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring("# TYPE ".length()).split(" ");
                types.put(parts[0], parts[1]);
            }
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String name = line.substring(0, line.lastIndexOf(' '));
            int brace = name.indexOf('{');
            names.add(brace > 0 ? name.substring(0, brace) : name);
        }
        return new Scrape(names, types);
    }
}

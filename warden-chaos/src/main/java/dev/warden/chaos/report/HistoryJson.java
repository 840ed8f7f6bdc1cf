package dev.warden.chaos.report;

import dev.warden.chaos.check.Anomaly;
import dev.warden.chaos.check.CheckResult;
import dev.warden.chaos.history.Op;
import dev.warden.chaos.nemesis.FaultWindow;
import dev.warden.chaos.run.Availability;
import dev.warden.chaos.run.ResourceSample;
import dev.warden.chaos.run.RunResult;
import dev.warden.server.common.Json;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The raw run as JSON: options, every op, every fault window, the verdicts and resource samples. */
public final class HistoryJson {
    private HistoryJson() {
    }

    public static void write(RunResult result, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            Map<String, Object> head = new LinkedHashMap<>();
            head.put("flavour", result.options().flavour().name().toLowerCase());
            head.put("seed", result.options().seed());
            head.put("members", result.options().members());
            head.put("faultPhaseS", result.options().faultFor().toSeconds());
            head.put("faults", result.options().faults().stream().map(f -> f.id()).toList());
            head.put("startedAtMs", result.startedAtMs());
            head.put("timesAre", "nanoseconds since the run's history began (monotonic)");
            out.write("{\"run\":" + Json.compact(head) + ",\n\"nemesis\":[\n");
            writeAll(out, result.windows().stream().map(HistoryJson::window).toList());
            out.write("],\n\"availability\":[\n");
            writeAll(out, result.recoveries().stream().map(HistoryJson::recovery).toList());
            out.write("],\n\"checks\":[\n");
            writeAll(out, result.checks().stream().map(HistoryJson::check).toList());
            out.write("],\n\"resources\":[\n");
            writeAll(out, result.resources().stream().map(HistoryJson::sample).toList());
            out.write("],\n\"history\":[\n");
            writeAll(out, result.ops().stream().map(HistoryJson::op).toList());
            out.write("]}\n");
        }
    }

    /** The ops of a history file this class wrote, in the order written. */
    @SuppressWarnings("unchecked")
    public static List<Op> readOps(Path file) throws IOException {
        Map<String, Object> root = (Map<String, Object>) JsonReader.parse(Files.readString(file, StandardCharsets.UTF_8));
        List<Op> ops = new ArrayList<>();
        for (Object item : (List<Object>) root.get("history")) {
            Map<String, Object> m = (Map<String, Object>) item;
            ops.add(new Op((Long) m.get("id"), ((Long) m.get("client")).intValue(), (String) m.get("workload"),
                    (String) m.get("f"), (String) m.get("key"), (Long) m.get("invokeNs"), (Long) m.get("completeNs"),
                    dev.warden.chaos.history.Outcome.valueOf(((String) m.get("outcome")).toUpperCase(java.util.Locale.ROOT)),
                    longs(m.get("input")), longs(m.get("output")), (String) m.getOrDefault("error", "")));
        }
        return ops;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> longs(Object map) {
        Map<String, Long> out = new LinkedHashMap<>();
        ((Map<String, Object>) map).forEach((k, v) -> out.put(k, (Long) v));
        return out;
    }

    private static void writeAll(Writer out, List<Map<String, Object>> items) throws IOException {
        for (int i = 0; i < items.size(); i++) {
            out.write(Json.compact(items.get(i)));
            out.write(i + 1 < items.size() ? ",\n" : "\n");
        }
    }

    static Map<String, Object> op(Op op) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", op.id());
        m.put("client", op.client());
        m.put("workload", op.workload());
        m.put("f", op.f());
        m.put("key", op.key());
        m.put("invokeNs", op.invokeNs());
        m.put("completeNs", op.completeNs());
        m.put("outcome", op.outcome().name().toLowerCase());
        m.put("input", op.input());
        m.put("output", op.output());
        if (!op.error().isEmpty()) {
            m.put("error", op.error());
        }
        return m;
    }

    private static Map<String, Object> window(FaultWindow w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", w.index());
        m.put("fault", w.kind().id());
        m.put("detail", w.detail());
        m.put("startNs", w.startNs());
        m.put("healNs", w.healNs());
        m.put("wholeAgainNs", w.wholeAgainNs());
        m.put("notes", w.notes());
        return m;
    }

    private static Map<String, Object> recovery(Availability.Recovery r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", r.window().index());
        m.put("fault", r.window().kind().id());
        m.put("firstWriteAfterHealMs", r.firstWriteAfterHealMs());
        m.put("wholeAfterHealMs", r.wholeAfterHealMs());
        m.put("longestWriteGapMs", r.longestWriteGapMs());
        return m;
    }

    private static Map<String, Object> check(CheckResult c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("checker", c.checker());
        m.put("verdict", c.verdict().name());
        m.put("summary", c.summary());
        List<Object> anomalies = new ArrayList<>();
        for (Anomaly a : c.anomalies()) {
            anomalies.add(Map.of("what", a.what(), "atNs", a.atNs(), "evidence", a.evidence()));
        }
        m.put("anomalies", anomalies);
        return m;
    }

    private static Map<String, Object> sample(ResourceSample s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("atNs", s.atNs());
        m.put("member", s.member());
        m.put("heapAfterGcMb", s.heapAfterGcMb());
        m.put("threads", s.threads());
        m.put("fds", s.fileDescriptors());
        m.put("rssMb", s.rssMb());
        m.put("dataDirMb", s.dataDirMb());
        return m;
    }
}

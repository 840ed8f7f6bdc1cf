package dev.warden.server.console;

import dev.warden.server.ServerConfig;
import dev.warden.server.net.ServerContext;
import dev.warden.server.quorum.QuorumMember;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * The ensemble as this server sees it: every member of its configuration with its role, last
 * zxid, epoch (the zxid's high 32 bits) and lag (how many zxids it is behind the most advanced
 * member that answered). This server's own figures come from its state; the other members are
 * asked with the {@code srvr} four-letter word on their client ports (ZooKeeper's whitelist
 * allows it by default), {@link #PROBE_TIMEOUT_MS} each, all at once.
 */
final class EnsembleApi {
    static final int PROBE_TIMEOUT_MS = 500;

    private final ServerContext server;
    private final ExecutorService probes;

    EnsembleApi(ServerContext server, ExecutorService probes) {
        this.server = server;
        this.probes = probes;
    }

    /** What one member said: its mode ("leader", "follower", ...) and last zxid, or why it did not answer. */
    record Probe(String mode, Long zxid, String error) {
    }

    Map<String, Object> ensemble() {
        ServerConfig config = server.config();
        Map<Long, QuorumMember> members = config.members();
        List<Map<String, Object>> list = new ArrayList<>();
        Map<Long, CompletableFuture<Probe>> asked = new LinkedHashMap<>();
        if (members.isEmpty()) {
            asked.put((long) config.serverId(), CompletableFuture.completedFuture(self()));
        } else {
            members.forEach((id, member) -> asked.put(id, id == config.serverId()
                    ? CompletableFuture.completedFuture(self())
                    : CompletableFuture.supplyAsync(() -> srvr(member), probes)));
        }
        long newest = 0;
        Map<Long, Probe> answers = new LinkedHashMap<>();
        for (var entry : asked.entrySet()) {
            Probe probe = entry.getValue().join();
            answers.put(entry.getKey(), probe);
            if (probe.zxid() != null) {
                newest = Math.max(newest, probe.zxid());
            }
        }
        for (var entry : answers.entrySet()) {
            Probe probe = entry.getValue();
            QuorumMember member = members.get(entry.getKey());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", entry.getKey());
            // a member's server.N line; a standalone server's client address (the port when one was given)
            m.put("address", member != null ? member.toSpec() : config.clientPort() == 0 ? config.clientPortAddress()
                    : config.clientPortAddress() + ":" + config.clientPort());
            m.put("self", entry.getKey() == config.serverId());
            m.put("voting", member == null || !member.observer());
            m.put("role", probe.mode());
            m.put("zxid", probe.zxid() == null ? null : TreeApi.hex(probe.zxid()));
            m.put("epoch", probe.zxid() == null ? null : probe.zxid() >>> 32);
            m.put("lag", probe.zxid() == null ? null : newest - probe.zxid());
            m.put("error", probe.error());
            list.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        OptionalLong leader = server.memberStatus().leaderId();
        out.put("mode", server.memberStatus().mode());
        out.put("leader_id", leader.isPresent() ? leader.getAsLong() : null);
        out.put("zab_state", server.memberStatus().zabState().orElse(null));
        var fsyncs = server.stats().fsyncs().times();
        out.put("fsync_avg_ms", fsyncs.avgMs());
        out.put("fsync_max_ms", fsyncs.maxMs());
        out.put("members", list);
        return out;
    }

    private Probe self() {
        String mode = server.memberStatus().servingMode().orElse("not serving");
        return new Probe(mode, server.stateMachine().tree().lastAppliedZxid(), null);
    }

    /** Asks a member for srvr on its client port and reads its Mode and Zxid lines. */
    private Probe srvr(QuorumMember member) {
        String host = member.clientHost() != null && !member.clientHost().isBlank() ? member.clientHost()
                : member.host();
        int port = member.hasClientPort() ? member.clientPort() : server.config().clientPort();
        if (host.equals("0.0.0.0")) {
            host = member.host();
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), PROBE_TIMEOUT_MS);
            socket.setSoTimeout(PROBE_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return parseSrvr(new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8)).lines().toList());
        } catch (IOException | RuntimeException e) {
            return new Probe(null, null, "no answer from " + host + ":" + port + ": " + e.getMessage());
        }
    }

    static Probe parseSrvr(List<String> lines) {
        String mode = null;
        Long zxid = null;
        for (String line : lines) {
            if (line.startsWith("Mode: ")) {
                mode = line.substring("Mode: ".length()).trim();
            } else if (line.startsWith("Zxid: 0x")) {
                zxid = Long.parseUnsignedLong(line.substring("Zxid: 0x".length()).trim(), 16);
            }
        }
        if (mode == null || zxid == null) {
            String said = String.join(" ", lines).trim();
            return new Probe(null, null, said.isEmpty() ? "no srvr answer" : said);
        }
        return new Probe(mode, zxid, null);
    }
}

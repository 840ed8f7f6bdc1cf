package dev.warden.server.console;

import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.net.MemberStatus;
import dev.warden.server.net.ServerContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * The ensemble as this server sees it: every member of its configuration with its role, last
 * zxid, epoch, lag (how many zxids it is behind the most advanced member that answered) and
 * fsync times. This server's own figures come from its state (its epoch is its leader's, and
 * the time its last election ended here is given too); the other members are asked with the
 * {@code srvr} four-letter word on their client ports (ZooKeeper's whitelist allows it by
 * default) for their mode and zxid, whose high 32 bits are the epoch as far as another member
 * can tell, and with {@code mntr} for their fsync times (only where their whitelist allows it),
 * {@link #PROBE_TIMEOUT_MS} each, all at once.
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

    /** A member's fsync times in ms from mntr, or why they are not known. */
    record Fsyncs(Double avgMs, Long maxMs, String error) {
    }

    Map<String, Object> ensemble() {
        ServerConfig config = server.config();
        Map<Long, QuorumMember> members = config.members();
        List<Map<String, Object>> list = new ArrayList<>();
        Map<Long, CompletableFuture<Probe>> asked = new LinkedHashMap<>();
        Map<Long, CompletableFuture<Fsyncs>> fsyncsAsked = new LinkedHashMap<>();
        if (members.isEmpty()) {
            asked.put((long) config.serverId(), CompletableFuture.completedFuture(self()));
            fsyncsAsked.put((long) config.serverId(), CompletableFuture.completedFuture(ownFsyncs()));
        } else {
            members.forEach((id, member) -> {
                boolean self = id == config.serverId();
                asked.put(id, self ? CompletableFuture.completedFuture(self())
                        : CompletableFuture.supplyAsync(() -> srvr(member), probes));
                fsyncsAsked.put(id, self ? CompletableFuture.completedFuture(ownFsyncs())
                        : CompletableFuture.supplyAsync(() -> mntr(member), probes));
            });
        }
        Optional<MemberStatus.Reign> reign = server.memberStatus().reign();
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
            boolean self = entry.getKey() == config.serverId();
            if (self && reign.isPresent()) {
                m.put("epoch", reign.get().epoch());
                m.put("epoch_from", "state");
            } else {
                // another member's epoch as its last zxid tells it: an epoch with no write yet shows the one before
                m.put("epoch", probe.zxid() == null ? null : probe.zxid() >>> 32);
                m.put("epoch_from", probe.zxid() == null ? null : "zxid");
            }
            m.put("lag", probe.zxid() == null ? null : newest - probe.zxid());
            Fsyncs fsyncs = fsyncsAsked.get(entry.getKey()).join();
            m.put("fsync_avg_ms", fsyncs.avgMs());
            m.put("fsync_max_ms", fsyncs.maxMs());
            m.put("fsync_error", fsyncs.error());
            m.put("error", probe.error());
            list.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        OptionalLong leader = server.memberStatus().leaderId();
        out.put("mode", server.memberStatus().mode());
        out.put("leader_id", leader.isPresent() ? leader.getAsLong() : null);
        out.put("zab_state", server.memberStatus().zabState().orElse(null));
        out.put("epoch", reign.map(MemberStatus.Reign::epoch).orElse(null));
        out.put("elected_at_ms", reign.map(MemberStatus.Reign::electedAtMs).orElse(null));
        out.put("elected_at", reign.map(r -> Instant.ofEpochMilli(r.electedAtMs()).toString()).orElse(null));
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

    private Fsyncs ownFsyncs() {
        var times = server.stats().fsyncs().times();
        return new Fsyncs(times.avgMs(), times.maxMs(), null);
    }

    /** Asks a member for srvr on its client port and reads its Mode and Zxid lines. */
    private Probe srvr(QuorumMember member) {
        try {
            return parseSrvr(ask(member, "srvr"));
        } catch (IOException | RuntimeException e) {
            return new Probe(null, null, "no answer from " + clientAddress(member) + ": " + e.getMessage());
        }
    }

    /** Asks a member for mntr on its client port and reads its fsynctime lines. */
    private Fsyncs mntr(QuorumMember member) {
        try {
            return parseMntr(ask(member, "mntr"));
        } catch (IOException | RuntimeException e) {
            return new Fsyncs(null, null, "no mntr answer from " + clientAddress(member) + ": " + e.getMessage());
        }
    }

    /** The host and port a member's four-letter words go to: its client address, or this server's client port. */
    private String clientAddress(QuorumMember member) {
        String host = member.clientHost() != null && !member.clientHost().isBlank() ? member.clientHost()
                : member.host();
        int port = member.hasClientPort() ? member.clientPort() : server.config().clientPort();
        if (host.equals("0.0.0.0")) {
            host = member.host();
        }
        return host + ":" + port;
    }

    private List<String> ask(QuorumMember member, String word) throws IOException {
        String address = clientAddress(member);
        int colon = address.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.substring(0, colon),
                    Integer.parseInt(address.substring(colon + 1))), PROBE_TIMEOUT_MS);
            socket.setSoTimeout(PROBE_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
                    .lines().toList();
        }
    }

    /**
     * The fsync figures of a mntr answer (tab-separated, ZooKeeper's names); a member whose
     * whitelist leaves mntr out answers a sentence instead, which is passed on.
     */
    static Fsyncs parseMntr(List<String> lines) {
        Double avg = null;
        Long max = null;
        for (String line : lines) {
            int tab = line.indexOf('\t');
            if (tab < 0) {
                continue;
            }
            String key = line.substring(0, tab);
            String value = line.substring(tab + 1).trim();
            try {
                if (key.equals("zk_avg_fsynctime")) {
                    avg = Double.parseDouble(value);
                } else if (key.equals("zk_max_fsynctime")) {
                    max = Long.parseLong(value);
                }
            } catch (NumberFormatException notANumber) {
                return new Fsyncs(null, null, "mntr gave " + key + "=" + value);
            }
        }
        if (avg == null || max == null) {
            String said = String.join(" ", lines).trim();
            return new Fsyncs(null, null, said.isEmpty() ? "no mntr answer" : said);
        }
        return new Fsyncs(avg, max, null);
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

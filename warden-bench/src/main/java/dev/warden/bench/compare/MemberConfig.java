package dev.warden.bench.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one member's zoo.cfg (and myid in an ensemble). Both flavours get the same settings:
 * fsync on, loopback only, no per-address connection limit, every four-letter word.
 */
final class MemberConfig {
    static final int TICK_TIME_MS = 2000;

    private MemberConfig() {
    }

    /**
     * @param myId          1-based member number
     * @param clientPorts   client port of each member, by member number - 1
     * @param quorumPorts   peer port of each member
     * @param electionPorts election port of each member
     * @return the zoo.cfg written
     */
    static Path write(Flavour flavour, Topology topology, int myId, Path memberDir, int[] clientPorts,
                      int[] quorumPorts, int[] electionPorts, int juteMaxBufferBytes) throws IOException {
        Path dataDir = memberDir.resolve("data");
        Files.createDirectories(dataDir);
        List<String> lines = new ArrayList<>(List.of(
                "tickTime=" + TICK_TIME_MS,
                "initLimit=10",
                "syncLimit=5",
                "dataDir=" + dataDir.toAbsolutePath(),
                "clientPort=" + clientPorts[myId - 1],
                "clientPortAddress=127.0.0.1",
                "maxClientCnxns=0",
                "forceSync=yes",
                "4lw.commands.whitelist=*"));
        switch (flavour) {
            case APACHE -> lines.add("admin.enableServer=false");
            case WARDEN -> lines.add("jute.maxbuffer=" + juteMaxBufferBytes);
        }
        if (topology != Topology.STANDALONE) {
            for (int id = 1; id <= topology.members(); id++) {
                lines.add("server." + id + "=127.0.0.1:" + quorumPorts[id - 1] + ":" + electionPorts[id - 1]);
            }
            Files.writeString(dataDir.resolve("myid"), myId + "\n", StandardCharsets.US_ASCII);
        }
        Path config = memberDir.resolve("zoo.cfg");
        Files.write(config, lines, StandardCharsets.UTF_8);
        return config;
    }
}

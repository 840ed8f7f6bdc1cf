package dev.warden.bench.etcd;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One etcd member on loopback: its name, client and peer ports and its own data directory.
 * {@link #arguments} is its command line, fsync on (etcd's default; no {@code --unsafe-no-fsync}).
 */
public record EtcdMember(String name, int clientPort, int peerPort, Path dataDir) {
    /**
     * History older than this is compacted, so a long run of writes does not fill etcd's backend to
     * its quota (then every write fails with "database space exceeded"). ZooKeeper keeps no history
     * at all, so this takes nothing from etcd that the comparison needs.
     */
    static final String COMPACTION_RETENTION = "1m";
    /** etcd's largest recommended backend quota (8 GiB), above the 2 GiB default, for the same reason. */
    static final long QUOTA_BACKEND_BYTES = 8L << 30;

    public String clientUrl() {
        return "http://127.0.0.1:" + clientPort;
    }

    public String peerUrl() {
        return "http://127.0.0.1:" + peerPort;
    }

    /** The member's command line, {@code binary} first, in a cluster of {@code all} (this one included). */
    public List<String> arguments(Path binary, List<EtcdMember> all, String clusterToken) {
        List<String> args = new ArrayList<>();
        args.add(binary.toString());
        args.add("--name=" + name);
        args.add("--data-dir=" + dataDir);
        args.add("--listen-client-urls=" + clientUrl());
        args.add("--advertise-client-urls=" + clientUrl());
        args.add("--listen-peer-urls=" + peerUrl());
        args.add("--initial-advertise-peer-urls=" + peerUrl());
        args.add("--initial-cluster=" + all.stream().map(m -> m.name() + "=" + m.peerUrl())
                .collect(Collectors.joining(",")));
        args.add("--initial-cluster-token=" + clusterToken);
        args.add("--initial-cluster-state=new");
        args.add("--auto-compaction-mode=periodic");
        args.add("--auto-compaction-retention=" + COMPACTION_RETENTION);
        args.add("--quota-backend-bytes=" + QUOTA_BACKEND_BYTES);
        args.add("--logger=zap");
        args.add("--log-level=warn");
        return args;
    }
}

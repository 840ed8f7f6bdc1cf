package dev.warden.consensus;

import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.ProtocolException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How configurations travel between members (in NEWLEADER): version, the application's data, then
 * the quorum rule and its members, ids sorted so one configuration always encodes the same way.
 */
final class ConfigurationWire {
    private static final byte MAJORITY = 0;
    private static final byte HIERARCHICAL = 1;

    private ConfigurationWire() {
    }

    static void write(Configurations configurations, JuteWriter out) {
        write(configurations.committed(), out);
        out.writeInt(configurations.logged().size());
        for (Configuration c : configurations.logged()) {
            write(c, out);
        }
    }

    static long size(Configurations configurations) {
        long size = size(configurations.committed()) + 4;
        for (Configuration c : configurations.logged()) {
            size += size(c);
        }
        return size;
    }

    static Configurations readConfigurations(JuteReader in) {
        Configuration committed = read(in);
        int count = in.readInt();
        if (count < 0 || count > in.remaining()) {
            throw new ProtocolException("configuration count " + count + " does not fit the frame");
        }
        List<Configuration> logged = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            logged.add(read(in));
        }
        try {
            return new Configurations(committed, logged);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("configurations: " + e.getMessage());
        }
    }

    static void write(Configuration c, JuteWriter out) {
        out.writeLong(c.version()).writeBuffer(c.data());
        if (c.quorum() instanceof HierarchicalQuorum h) {
            out.writeByte(HIERARCHICAL);
            out.writeInt(h.groups().size());
            for (Map.Entry<Long, Set<Long>> group : new TreeMap<>(h.groups()).entrySet()) {
                out.writeLong(group.getKey());
                writeIds(out, group.getValue());
            }
            TreeMap<Long, Long> weights = new TreeMap<>(h.weights());
            out.writeInt(weights.size());
            for (Map.Entry<Long, Long> weight : weights.entrySet()) {
                out.writeLong(weight.getKey()).writeLong(weight.getValue());
            }
        } else {
            out.writeByte(MAJORITY);
            writeIds(out, c.quorum().voters());
        }
        writeIds(out, c.quorum().observers());
    }

    static long size(Configuration c) {
        long size = 8 + 4 + c.data().length + 1;
        if (c.quorum() instanceof HierarchicalQuorum h) {
            size += 4;
            for (Set<Long> members : h.groups().values()) {
                size += 8 + 4 + 8L * members.size();
            }
            size += 4 + 16L * h.weights().size();
        } else {
            size += 4 + 8L * c.quorum().voters().size();
        }
        return size + 4 + 8L * c.quorum().observers().size();
    }

    static Configuration read(JuteReader in) {
        long version = in.readLong();
        byte[] data = in.readBuffer();
        if (data == null) {
            throw new ProtocolException("configuration data is null");
        }
        byte kind = in.readByte();
        try {
            QuorumVerifier quorum;
            if (kind == MAJORITY) {
                Set<Long> voters = readIds(in);
                quorum = new MajorityQuorum(voters, readIds(in));
            } else if (kind == HIERARCHICAL) {
                int groupCount = count(in, 12);
                Map<Long, Set<Long>> groups = new HashMap<>();
                long previous = 0;
                for (int i = 0; i < groupCount; i++) {
                    long group = in.readLong();
                    increasing(i, group, previous, "groups");
                    groups.put(group, readIds(in));
                    previous = group;
                }
                int weightCount = count(in, 16);
                Map<Long, Long> weights = new HashMap<>();
                for (int i = 0; i < weightCount; i++) {
                    long id = in.readLong();
                    increasing(i, id, previous, "weights");
                    weights.put(id, in.readLong());
                    previous = id;
                }
                quorum = new HierarchicalQuorum(groups, weights, readIds(in));
            } else {
                throw new ProtocolException("unknown quorum kind " + kind);
            }
            return new Configuration(version, quorum, data);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("configuration " + Zxid.hex(version) + ": " + e.getMessage());
        }
    }

    private static void writeIds(JuteWriter out, Set<Long> ids) {
        out.writeInt(ids.size());
        for (Long id : new TreeSet<>(ids)) {
            out.writeLong(id);
        }
    }

    /** Ids in increasing order, as {@link #writeIds} writes them: anything else is not our encoding. */
    private static Set<Long> readIds(JuteReader in) {
        int count = count(in, 8);
        Set<Long> ids = new HashSet<>();
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            long id = in.readLong();
            if (i > 0 && id <= previous) {
                throw new ProtocolException("member ids out of order");
            }
            ids.add(id);
            previous = id;
        }
        return ids;
    }

    private static void increasing(int index, long key, long previous, String what) {
        if (index > 0 && key <= previous) {
            throw new ProtocolException(what + " out of order");
        }
    }

    private static int count(JuteReader in, int minBytesEach) {
        int count = in.readInt();
        if (count < 0 || (long) count * minBytesEach > in.remaining()) {
            throw new ProtocolException("count " + count + " does not fit the " + in.remaining() + " bytes left");
        }
        return count;
    }
}

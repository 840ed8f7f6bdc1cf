package dev.warden.server.net;

import dev.warden.server.common.WardenVersion;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JVM's environment as ZooKeeper's envi word and environment command list it, in its order. */
public final class Environment {
    private static final List<String> JVM_PROPERTIES = List.of("java.version", "java.vendor", "java.home",
            "java.class.path", "java.library.path", "java.io.tmpdir", "java.compiler", "os.name", "os.arch",
            "os.version", "user.name", "user.home", "user.dir");

    private Environment() {
    }

    /** Each entry's value as text; a property the JVM does not set reads "&lt;NA&gt;", as in ZooKeeper. */
    public static Map<String, String> list() {
        Map<String, String> properties = ManagementFactory.getRuntimeMXBean().getSystemProperties();
        Map<String, String> out = new LinkedHashMap<>();
        out.put("zookeeper.version", WardenVersion.DESCRIPTION);
        out.put("host.name", hostName());
        for (String key : JVM_PROPERTIES) {
            out.put(key, properties.getOrDefault(key, "<NA>"));
        }
        Runtime runtime = Runtime.getRuntime();
        out.put("os.memory.free", runtime.freeMemory() / (1024 * 1024) + "MB");
        out.put("os.memory.max", runtime.maxMemory() / (1024 * 1024) + "MB");
        out.put("os.memory.total", runtime.totalMemory() / (1024 * 1024) + "MB");
        return out;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            return "<NA>";
        }
    }
}

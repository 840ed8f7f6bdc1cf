package dev.warden.recipes.discovery;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * One registered instance of a service. Stored as the text of a Java properties file (readable
 * with any tool): {@code address}, {@code port} and {@code payload.<key>} lines.
 *
 * @param name    the service name (a node name: no '/')
 * @param id      this instance's id, unique within the service (a node name)
 * @param address host name or IP address
 * @param port    port, or 0 if none
 * @param payload free-form attributes (version, zone, weight, ...)
 */
public record ServiceInstance(String name, String id, String address, int port, Map<String, String> payload) {
    public ServiceInstance {
        requireNodeName("name", name);
        requireNodeName("id", id);
        if (address == null || address.isEmpty()) {
            throw new IllegalArgumentException("a service instance needs an address");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, not " + port);
        }
        payload = Map.copyOf(payload == null ? Map.of() : payload);
    }

    private static void requireNodeName(String what, String value) {
        if (value == null || value.isEmpty() || value.contains("/") || value.equals(".") || value.equals("..")) {
            throw new IllegalArgumentException("service instance " + what + " must be a node name (no '/'), got: " + value);
        }
    }

    byte[] encode() {
        Properties properties = new Properties();
        properties.setProperty("address", address);
        properties.setProperty("port", Integer.toString(port));
        payload.forEach((key, value) -> properties.setProperty("payload." + key, value));
        StringWriter out = new StringWriter();
        try {
            properties.store(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    static ServiceInstance decode(String name, String id, byte[] data) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(data, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("service instance " + name + "/" + id + " holds no properties text", e);
        }
        Map<String, String> payload = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("payload.")) {
                payload.put(key.substring("payload.".length()), properties.getProperty(key));
            }
        }
        String port = properties.getProperty("port", "0");
        return new ServiceInstance(name, id, properties.getProperty("address", ""), Integer.parseInt(port), payload);
    }
}

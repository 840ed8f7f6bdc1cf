package dev.warden.server.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    private static Map<String, Object> sample() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("zxid", 4294967297L);
        inner.put("ratio", Double.NaN);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("name", "a \"quoted\"\tpath\u0001");
        value.put("ok", true);
        value.put("none", null);
        value.put("items", Arrays.asList(1, "two", List.of()));
        value.put("inner", inner);
        value.put("empty", Map.of());
        return value;
    }

    @Test
    void indentsAsZooKeepersAdminServer() {
        assertEquals("""
                {
                  "name" : "a \\"quoted\\"\\tpath\\u0001",
                  "ok" : true,
                  "none" : null,
                  "items" : [ 1, "two", [ ] ],
                  "inner" : {
                    "zxid" : 4294967297,
                    "ratio" : null
                  },
                  "empty" : { }
                }""", Json.write(sample()));
    }

    @Test
    void compactIsOneLineWithTheSameValues() {
        assertEquals("{\"name\":\"a \\\"quoted\\\"\\tpath\\u0001\",\"ok\":true,\"none\":null,"
                + "\"items\":[1,\"two\",[]],\"inner\":{\"zxid\":4294967297,\"ratio\":null},\"empty\":{}}",
                Json.compact(sample()));
    }
}

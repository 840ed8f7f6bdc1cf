package dev.warden.bench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ZnodeLayoutTest {
    @Test
    void everyParentIsCreatedBeforeItsFirstChild() {
        int znodes = 250_500;
        Set<String> created = new HashSet<>();
        created.add("/");
        for (int i = 0; i < znodes; i++) {
            for (String parent : ZnodeLayout.parentsToCreateBefore(i)) {
                assertTrue(created.contains(parent.substring(0, Math.max(1, parent.lastIndexOf('/')))), parent);
                assertTrue(created.add(parent), "created twice: " + parent);
            }
            String path = ZnodeLayout.nodePath(i);
            assertTrue(created.contains(path.substring(0, path.lastIndexOf('/'))), path);
            assertTrue(created.add(path), "created twice: " + path);
        }
        assertEquals(znodes + ZnodeLayout.parentCount(znodes) + 1, created.size());
    }

    @Test
    void pathsLookLikeAServiceRegistry() {
        assertEquals("/app/region-9/service-999/node-999999", ZnodeLayout.nodePath(999_999));
        assertEquals(1 + 10 + 1000, ZnodeLayout.parentCount(1_000_000));
    }
}

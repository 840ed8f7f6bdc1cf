package dev.warden.state.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PathTableTest {

    @Test
    void randomAddsAndRemovesAgreeWithAHashMap() {
        PathTable table = new PathTable();
        Map<String, PathWatchers> model = new HashMap<>();
        Random random = new Random(7);
        for (int step = 0; step < 200_000; step++) {
            // A small key space forces collisions, growth and shrinkage over and over.
            String path = "/n/" + random.nextInt(step < 100_000 ? 5_000 : 300);
            PathWatchers present = model.get(path);
            if (present == null && random.nextInt(3) != 0) {
                PathWatchers entry = new PathWatchers(path);
                table.add(entry);
                model.put(path, entry);
            } else if (present != null) {
                assertTrue(table.remove(present));
                model.remove(path);
            } else {
                assertFalse(table.remove(new PathWatchers(path)));
            }
            assertSame(model.get(path), table.get(path));
        }
        assertEquals(model.size(), table.size());
        for (Map.Entry<String, PathWatchers> e : model.entrySet()) {
            assertSame(e.getValue(), table.get(e.getKey()));
        }
        List<PathWatchers> iterated = new ArrayList<>();
        table.forEach(iterated::add);
        assertEquals(model.size(), iterated.size());
        assertNull(table.get("/absent"));
    }
}

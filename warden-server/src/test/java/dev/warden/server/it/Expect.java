package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.function.Executable;

/** Assertions on the exact KeeperException code an operation fails with. */
final class Expect {
    private Expect() {
    }

    static KeeperException code(KeeperException.Code expected, Executable operation) {
        KeeperException e = assertThrows(KeeperException.class, operation, "expected " + expected);
        assertEquals(expected, e.code(), () -> "wrong code: " + e);
        return e;
    }
}

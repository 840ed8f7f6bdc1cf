package dev.warden.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Reading a JVM's heap through jcmd: the answer's format, and this very JVM as the subject. */
class ServerHeapTest {
    @Test
    void usedHeapIsReadFromGcHeapInfo() throws IOException {
        String answer = "4242:\\n garbage-first heap   total 2097152K, used 123456K [0x0000000080000000,"
                + " 0x0000000100000000)\\n  region size 1024K, 5 young (5120K), 0 survivors (0K)\\n";
        assertEquals(123456L * 1024, ServerHeap.usedBytes(answer));
        IOException unknown = assertThrows(IOException.class, () -> ServerHeap.usedBytes("4242:\\nno such JVM\\n"));
        assertTrue(unknown.getMessage().contains("no 'heap total ..K, used ..K' line"), unknown.getMessage());
    }

    @Test
    void weighsALiveJvm() throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        long bytes = ServerHeap.afterFullGcBytes(jcmd, ProcessHandle.current().pid());
        assertTrue(bytes > 0 && bytes < Runtime.getRuntime().maxMemory(), "heap after GC: " + bytes);
    }
}

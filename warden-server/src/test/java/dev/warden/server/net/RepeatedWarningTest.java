package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class RepeatedWarningTest {
    @Test
    void aFloodIsTheFirstLineAndACountPerWindow() {
        List<String> lines = new ArrayList<>();
        Logger recording = (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(), new Class<?>[] {Logger.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("warn")) {
                        Object[] arguments = args.length > 1 && args[1] instanceof Object[] array ? array
                                : java.util.Arrays.copyOfRange(args, 1, args.length);
                        lines.add(org.slf4j.helpers.MessageFormatter.arrayFormat((String) args[0], arguments)
                                .getMessage());
                    }
                    return method.getReturnType() == boolean.class ? true : null;
                });
        AtomicLong nowMs = new AtomicLong(1_000);
        RepeatedWarning warning = new RepeatedWarning(recording, nowMs::get);
        for (int i = 0; i < 488; i++) {
            warning.warn("bad frame {}", i);
            nowMs.addAndGet(100); // 488 in 48.8 s
        }
        assertEquals(List.of("bad frame 0"), lines);
        assertEquals(487, warning.suppressed());
        nowMs.addAndGet(60_000);
        warning.warn("bad frame {}", 488);
        assertEquals(List.of("bad frame 0", "487 more like the warning below in the last 108 s", "bad frame 488"),
                lines);
    }
}

package dev.warden.chaos.run;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A print stream that keeps every line it is given (for the report) and passes it on. */
public final class RunLog extends PrintStream {
    private final List<String> lines;

    private RunLog(LineCollector collector) {
        super(collector, true, StandardCharsets.UTF_8);
        this.lines = collector.lines;
    }

    public static RunLog to(PrintStream out) {
        return new RunLog(new LineCollector(out));
    }

    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    private static final class LineCollector extends OutputStream {
        private final PrintStream out;
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final ByteArrayOutputStream current = new ByteArrayOutputStream();

        LineCollector(PrintStream out) {
            this.out = out;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                String line = current.toString(StandardCharsets.UTF_8);
                current.reset();
                lines.add(line);
                out.println(line);
            } else {
                current.write(b);
            }
        }
    }
}

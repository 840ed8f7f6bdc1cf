package dev.warden.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class ToolLoggingTest {
    @Test
    void aToolGetsWarningsOnlyAndItsOwnLoggerLevels() {
        String before = System.getProperty(ToolLogging.THRESHOLD_PROPERTY);
        try {
            System.clearProperty(ToolLogging.THRESHOLD_PROPERTY);
            ToolLogging.quiet(Map.of("dev.warden.cli.test.reconnects", "ERROR"));
            assertEquals("WARN", System.getProperty(ToolLogging.THRESHOLD_PROPERTY));
            Logger reconnects = LoggerFactory.getLogger("dev.warden.cli.test.reconnects");
            assertFalse(reconnects.isWarnEnabled());
            assertTrue(reconnects.isErrorEnabled());
        } finally {
            if (before == null) {
                System.clearProperty(ToolLogging.THRESHOLD_PROPERTY);
            } else {
                System.setProperty(ToolLogging.THRESHOLD_PROPERTY, before);
            }
        }
    }

    @Test
    void aThresholdTheOperatorChoseIsKept() {
        String before = System.getProperty(ToolLogging.THRESHOLD_PROPERTY);
        try {
            System.setProperty(ToolLogging.THRESHOLD_PROPERTY, "DEBUG");
            ToolLogging.quiet(Map.of());
            assertEquals("DEBUG", System.getProperty(ToolLogging.THRESHOLD_PROPERTY));
        } finally {
            if (before == null) {
                System.clearProperty(ToolLogging.THRESHOLD_PROPERTY);
            } else {
                System.setProperty(ToolLogging.THRESHOLD_PROPERTY, before);
            }
        }
    }
}

package dev.warden.testing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a {@link dev.warden.testing.WardenTestingServer} for the annotated test class (one server
 * for all its tests) or test method (a fresh server for that test). Tests receive it as a
 * parameter or in a field of type {@code WardenTestingServer}; it is closed and its data
 * discarded afterwards.
 *
 * <pre>{@code
 * @WithWardenServer
 * class OrdersTest {
 *     @Test void stores(WardenTestingServer server) { connect(server.connectString()); ... }
 * }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(WardenExtension.class)
public @interface WithWardenServer {
    /** True (default): data on an in-memory file system, no fsync; false: a temporary disk directory with fsync. */
    boolean inMemory() default true;
}

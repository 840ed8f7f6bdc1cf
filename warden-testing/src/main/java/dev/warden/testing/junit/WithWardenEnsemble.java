package dev.warden.testing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a {@link dev.warden.testing.WardenTestingCluster} in the test's JVM for the annotated
 * class (one ensemble for all its tests) or method (a fresh one for that test). Tests receive
 * it as a parameter or in a field of type {@code WardenTestingCluster}. A test that kills or
 * restarts members of a class-wide ensemble should leave it whole again for the next test
 * ({@code cluster.startAll()}).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(WardenExtension.class)
public @interface WithWardenEnsemble {
    /** The number of voting members. */
    int members() default 3;

    /** True (default): data on an in-memory file system, no fsync; false: temporary disk directories with fsync. */
    boolean inMemory() default true;
}

package dev.warden.testing.junit;

import dev.warden.testing.WardenTestingCluster;
import dev.warden.testing.WardenTestingServer;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts and closes the servers asked for by {@link WithWardenServer} and
 * {@link WithWardenEnsemble}: class-wide ones around all the class's tests, method-wide ones
 * around one test. It hands them to test parameters and to fields of the matching type (static
 * fields for class-wide ones, instance fields for both); the nearest scope wins.
 */
public final class WardenExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(WardenExtension.class);

    /**
     * A store's lookups fall through to the enclosing scopes' stores, so each resource is kept
     * under its own scope's id: a method's server must not be mistaken for its class's.
     */
    private record Key(Class<?> type, String scopeId) {
        static Key of(Class<?> type, ExtensionContext scope) {
            return new Key(type, scope.getUniqueId());
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        startFor(testClass, context);
        injectFields(testClass, null, context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeIn(context);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        startFor(context.getRequiredTestMethod(), context);
        Object instance = context.getRequiredTestInstance();
        injectFields(instance.getClass(), instance, context);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        closeIn(context);
    }

    private static void startFor(AnnotatedElement element, ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        Optional<WithWardenServer> server = AnnotationSupport.findAnnotation(element, WithWardenServer.class);
        if (server.isPresent() && store.get(Key.of(WardenTestingServer.class, context)) == null) {
            store.put(Key.of(WardenTestingServer.class, context), WardenTestingServer.builder().inMemory(server.get().inMemory()).start());
        }
        Optional<WithWardenEnsemble> ensemble = AnnotationSupport.findAnnotation(element, WithWardenEnsemble.class);
        if (ensemble.isPresent() && store.get(Key.of(WardenTestingCluster.class, context)) == null) {
            store.put(Key.of(WardenTestingCluster.class, context), WardenTestingCluster.builder(ensemble.get().members())
                    .inMemory(ensemble.get().inMemory()).start());
        }
    }

    private static void closeIn(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        WardenTestingServer server = store.remove(Key.of(WardenTestingServer.class, context), WardenTestingServer.class);
        WardenTestingCluster cluster = store.remove(Key.of(WardenTestingCluster.class, context), WardenTestingCluster.class);
        if (server != null) {
            server.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The resource of this type in the nearest scope that has one: this test, then its classes outward. */
    private static <T> T nearest(Class<T> type, ExtensionContext context) {
        for (ExtensionContext at = context; at != null; at = at.getParent().orElse(null)) {
            T found = at.getStore(NAMESPACE).get(Key.of(type, at), type);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static void injectFields(Class<?> type, Object instance, ExtensionContext context) {
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            for (Field field : at.getDeclaredFields()) {
                boolean isStatic = Modifier.isStatic(field.getModifiers());
                if ((instance == null) != isStatic || !isOurs(field.getType())) {
                    continue;
                }
                Object value = nearest(field.getType(), context);
                if (value == null) {
                    throw new ExtensionConfigurationException("field " + field + " wants a " + field.getType().getSimpleName()
                            + " but neither the test nor its class carries @WithWardenServer/@WithWardenEnsemble"
                            + (isStatic ? " (a static field takes only a class-wide one)" : ""));
                }
                try {
                    field.setAccessible(true);
                    field.set(instance, value);
                } catch (IllegalAccessException e) {
                    throw new ExtensionConfigurationException("cannot set " + field, e);
                }
            }
        }
    }

    private static boolean isOurs(Class<?> type) {
        return type == WardenTestingServer.class || type == WardenTestingCluster.class;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return isOurs(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        Object value = nearest(type, context);
        if (value == null) {
            throw new ParameterResolutionException("parameter " + parameter.getParameter() + " wants a "
                    + type.getSimpleName() + " but neither the test nor its class carries "
                    + (type == WardenTestingServer.class ? "@WithWardenServer" : "@WithWardenEnsemble"));
        }
        return value;
    }
}

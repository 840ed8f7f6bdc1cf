package dev.warden.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Maps Warden records onto Apache ZooKeeper's generated jute classes by field name, never by
 * position: a field order mistake on our side must show up as different bytes, not be mirrored
 * into the oracle. Multi bodies are handled by {@link ApacheMultiMirror}.
 */
final class ApacheMirror {
    private static final List<String> APACHE_PACKAGES =
            List.of("org.apache.zookeeper.proto.", "org.apache.zookeeper.data.", "org.apache.zookeeper.");

    private ApacheMirror() {
    }

    static Class<?> apacheClassOf(Class<?> ours) {
        String name = ours == Acl.class ? "ACL" : ours.getSimpleName();
        for (String pkg : APACHE_PACKAGES) {
            try {
                return Class.forName(pkg + name);
            } catch (ClassNotFoundException e) {
                // try the next package
            }
        }
        throw new AssertionError("no Apache class mirrors " + ours.getName());
    }

    /** Components that exist only in Warden (wire-presence flags), not in the Apache class. */
    static boolean isWardenOnly(RecordComponent component) {
        return component.getName().equals("readOnlyPresent");
    }

    /** The Apache bean property (getter/setter suffix) for one of our components. */
    static String apacheProperty(RecordComponent component) {
        String name = component.getName();
        if (name.equals("timeOutMs")) {
            return "TimeOut";
        }
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    static List<RecordComponent> mirroredComponents(Class<?> ours) {
        return Arrays.stream(ours.getRecordComponents()).filter(c -> !isWardenOnly(c)).toList();
    }

    /** Converts a Warden value (record, list, string, buffer, boxed primitive) to Apache's form. */
    static Object toApache(Object value) {
        if (value instanceof List<?> list) {
            List<Object> converted = new ArrayList<>(list.size());
            list.forEach(element -> converted.add(toApache(element)));
            return converted;
        }
        if (value instanceof MultiRequest || value instanceof MultiResponse) {
            return ApacheMultiMirror.toApache((Record) value);
        }
        if (value instanceof DeleteContainerRequest request) {
            // Hand-written Apache class with a constructor but no setter.
            return new org.apache.zookeeper.DeleteContainerRequest(request.path());
        }
        if (value instanceof Record && value instanceof java.lang.Record) {
            return recordToApache(value);
        }
        return value;
    }

    private static Object recordToApache(Object ours) {
        try {
            Object apache = apacheClassOf(ours.getClass()).getConstructor().newInstance();
            for (RecordComponent component : mirroredComponents(ours.getClass())) {
                Method setter = setter(apache.getClass(), "set" + apacheProperty(component));
                setter.invoke(apache, toApache(component.getAccessor().invoke(ours)));
            }
            return apache;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot mirror " + ours, e);
        }
    }

    private static Method setter(Class<?> apacheClass, String name) {
        for (Method method : apacheClass.getMethods()) {
            if (method.getName().equals(name) && method.getParameterCount() == 1) {
                return method;
            }
        }
        throw new AssertionError(apacheClass.getName() + " has no " + name);
    }

    /** Asserts that an Apache-decoded value carries the same field values as ours, by name. */
    static void assertSameValues(Object ours, Object apache) {
        assertSameValues(ours, apache, ours == null ? "value" : ours.getClass().getSimpleName());
    }

    static void assertSameValues(Object ours, Object apache, String where) {
        if (ours == null) {
            assertNull(apache, where);
        } else if (ours instanceof MultiRequest || ours instanceof MultiResponse) {
            ApacheMultiMirror.assertSameValues((Record) ours, apache);
        } else if (ours instanceof byte[] buffer) {
            assertNotNull(apache, where);
            assertArrayEquals(buffer, (byte[]) apache, where);
        } else if (ours instanceof List<?> list) {
            assertNotNull(apache, where);
            List<?> theirs = (List<?>) apache;
            assertEquals(list.size(), theirs.size(), where + ".size");
            for (int i = 0; i < list.size(); i++) {
                assertSameValues(list.get(i), theirs.get(i), where + "[" + i + "]");
            }
        } else if (ours instanceof Record && ours instanceof java.lang.Record) {
            assertNotNull(apache, where);
            assertTrue(apacheClassOf(ours.getClass()).isInstance(apache), where + " has Apache type " + apache.getClass());
            for (RecordComponent component : mirroredComponents(ours.getClass())) {
                String property = apacheProperty(component);
                assertSameValues(invoke(component.getAccessor(), ours), invoke(getter(apache, property), apache),
                        where + "." + component.getName());
            }
        } else {
            assertEquals(ours, apache, where);
        }
    }

    private static Method getter(Object apache, String property) {
        try {
            return apache.getClass().getMethod("get" + property);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(apache.getClass().getName() + " has no get" + property, e);
        }
    }

    /** The Apache class's own bean properties, to prove we mirror every one of its fields. */
    static List<String> apacheProperties(Class<?> apacheClass) {
        return Arrays.stream(apacheClass.getDeclaredMethods())
                .filter(m -> m.getName().startsWith("get") && m.getParameterCount() == 0)
                .filter(m -> java.lang.reflect.Modifier.isPublic(m.getModifiers()))
                .map(m -> m.getName().substring(3))
                .sorted()
                .toList();
    }

    private static Object invoke(Method method, Object target) {
        try {
            return method.invoke(target);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        } catch (InvocationTargetException e) {
            throw new AssertionError(e.getCause());
        }
    }
}

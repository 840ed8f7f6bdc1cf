package dev.warden.state.tree;

/** ZooKeeper's path rules (WIRE-PROTOCOL.md §7.1). */
public final class PathValidator {
    private PathValidator() {
    }

    /** Null when the path is valid, else the reason. */
    public static String problem(String path) {
        if (path == null || path.isEmpty()) {
            return "path must not be empty";
        }
        if (path.charAt(0) != '/') {
            return "path must start with /";
        }
        if (path.length() == 1) {
            return null;
        }
        if (path.charAt(path.length() - 1) == '/') {
            return "path must not end with /";
        }
        int componentStart = 1;
        for (int i = 1; i <= path.length(); i++) {
            char c = i < path.length() ? path.charAt(i) : '/';
            if (c == '/') {
                int length = i - componentStart;
                if (length == 0) {
                    return "empty node name at index " + i;
                }
                if (length == 1 && path.charAt(componentStart) == '.'
                        || length == 2 && path.charAt(componentStart) == '.' && path.charAt(componentStart + 1) == '.') {
                    return "relative paths not allowed at index " + componentStart;
                }
                componentStart = i + 1;
                continue;
            }
            if (c == 0) {
                return "null character not allowed at index " + i;
            }
            if (c <= 0x1f || c >= 0x7f && c <= 0x9f || c >= 0xd800 && c <= 0xf8ff || c >= 0xfff0) {
                return "invalid character at index " + i;
            }
        }
        return null;
    }

    public static boolean isValid(String path) {
        return problem(path) == null;
    }

    public static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    public static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    public static String child(String parent, String name) {
        return parent.equals("/") ? "/" + name : parent + "/" + name;
    }
}

package dev.warden.client;

/** Client-side path checks and the chroot mapping between client and server paths. */
final class Paths {
    private final String chroot;

    Paths(String chroot) {
        this.chroot = chroot;
    }

    String chroot() {
        return chroot;
    }

    /** Client path to the path the server sees. */
    String toServer(String clientPath) {
        if (chroot.isEmpty()) {
            return clientPath;
        }
        return clientPath.equals("/") ? chroot : chroot + clientPath;
    }

    /** Server path to the client's view; null if the path lies outside the chroot. */
    String toClient(String serverPath) {
        if (chroot.isEmpty() || serverPath == null) {
            return serverPath;
        }
        if (serverPath.equals(chroot)) {
            return "/";
        }
        if (serverPath.startsWith(chroot) && serverPath.length() > chroot.length()
                && serverPath.charAt(chroot.length()) == '/') {
            return serverPath.substring(chroot.length());
        }
        return null;
    }

    /** Validates a path for a sequential create, where a trailing '/' is allowed. */
    static void validateSequential(String path) {
        validate(path == null ? null : path + "1");
    }

    /** Rejects paths the server would refuse (rules of the wire spec, section 7.1). */
    static void validate(String path) {
        if (path == null || path.isEmpty()) {
            throw new IllegalArgumentException("path must not be empty");
        }
        if (path.charAt(0) != '/') {
            throw new IllegalArgumentException("path must start with /: " + path);
        }
        if (path.length() == 1) {
            return;
        }
        if (path.charAt(path.length() - 1) == '/') {
            throw new IllegalArgumentException("path must not end with /: " + path);
        }
        int componentStart = 1;
        for (int i = 1; i <= path.length(); i++) {
            if (i == path.length() || path.charAt(i) == '/') {
                String component = path.substring(componentStart, i);
                if (component.isEmpty() || component.equals(".") || component.equals("..")) {
                    throw new IllegalArgumentException("empty, . or .. component in path " + path);
                }
                componentStart = i + 1;
                continue;
            }
            char c = path.charAt(i);
            if (c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xf8ff) || c >= 0xfff0) {
                throw new IllegalArgumentException("invalid character 0x" + Integer.toHexString(c) + " in path " + path);
            }
        }
    }

    /** The parent of a path ("/" for top-level nodes). */
    static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }
}

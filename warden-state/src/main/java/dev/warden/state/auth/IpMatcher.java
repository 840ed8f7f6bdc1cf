package dev.warden.state.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** The ip scheme: an ACL id is an address or address/bits, matched by prefix. */
final class IpMatcher {
    private IpMatcher() {
    }

    public static boolean isValidId(String id) {
        return parse(id) != null;
    }

    public static boolean matches(String aclId, String clientAddress) {
        Prefix prefix = parse(aclId);
        byte[] client = literal(clientAddress);
        if (prefix == null || client == null || client.length != prefix.address.length) {
            return false;
        }
        int bits = prefix.bits;
        for (int i = 0; i < client.length && bits > 0; i++, bits -= 8) {
            int mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
            if ((client[i] & mask) != (prefix.address[i] & mask)) {
                return false;
            }
        }
        return true;
    }

    private record Prefix(byte[] address, int bits) {
    }

    private static Prefix parse(String id) {
        if (id == null || id.isEmpty()) {
            return null;
        }
        int slash = id.indexOf('/');
        byte[] address = literal(slash < 0 ? id : id.substring(0, slash));
        if (address == null) {
            return null;
        }
        int width = address.length * 8;
        int bits = width;
        if (slash >= 0) {
            try {
                bits = Integer.parseInt(id.substring(slash + 1));
            } catch (NumberFormatException e) {
                return null;
            }
            if (bits < 0 || bits > width) {
                return null;
            }
        }
        return new Prefix(address, bits);
    }

    /** Parses an IP literal without ever doing a DNS lookup. */
    private static byte[] literal(String text) {
        if (text.isEmpty() || !(text.indexOf(':') >= 0 || text.chars().allMatch(c -> c == '.' || Character.isDigit(c)))) {
            return null;
        }
        if (text.indexOf(':') < 0) {
            String[] parts = text.split("\\.", -1);
            if (parts.length != 4) {
                return null;
            }
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                if (parts[i].isEmpty() || parts[i].length() > 3) {
                    return null;
                }
                int value = Integer.parseInt(parts[i]);
                if (value > 255) {
                    return null;
                }
                bytes[i] = (byte) value;
            }
            return bytes;
        }
        try {
            return InetAddress.getByName(text.startsWith("[") ? text : "[" + text + "]").getAddress();
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
    }
}

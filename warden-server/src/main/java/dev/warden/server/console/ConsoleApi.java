package dev.warden.server.console;

import dev.warden.server.net.ServerContext;
import dev.warden.server.security.X509Identities;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * The console's JSON endpoints under {@code /console/api/}: login (digest, or the x509 identity
 * of the browser's client certificate over HTTPS) and logout, tls, the tree (node,
 * children, create, set, delete), sessions, watches, ensemble and stats. Every endpoint but
 * login and tls needs a login's cookie; every POST also needs the {@code X-Warden-Console} header, which
 * a page of another site cannot send, so a link elsewhere cannot make a logged-in browser write.
 */
final class ConsoleApi {
    static final String COOKIE = "warden_console";
    static final String WRITE_HEADER = "X-Warden-Console";

    /**
     * One API call as the HTTP layer decoded it; {@code parameters} are the query's, or the form
     * body's for a POST. {@code secure} is true over HTTPS; {@code certificate} is the client
     * certificate the TLS handshake verified, or null.
     */
    record Call(String method, String endpoint, Map<String, String> parameters, String token, String address,
                boolean hasWriteHeader, boolean secure, X509Certificate certificate) {
    }

    /** The answer: status, JSON body, and a Set-Cookie value when the login changed. */
    record Answer(int status, Map<String, Object> body, String setCookie) {
        static Answer ok(Map<String, Object> body) {
            return new Answer(200, body, null);
        }
    }

    private final ConsoleLogins logins;
    private final X509Identities x509;
    private final TreeApi tree;
    private final ActivityApi activity;
    private final EnsembleApi ensemble;
    private final StatsApi stats;

    ConsoleApi(ServerContext server, ConsoleLogins logins, ExecutorService probes, LatencyWindow latencies) {
        this.logins = logins;
        this.x509 = server.config().security().x509();
        this.tree = new TreeApi(server, new ConsoleWriter(server));
        this.activity = new ActivityApi(server);
        this.ensemble = new EnsembleApi(server, probes);
        this.stats = new StatsApi(server, latencies);
    }

    Answer handle(Call call) {
        try {
            return route(call);
        } catch (ConsoleException e) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("error", e.code());
            body.put("message", e.getMessage());
            return new Answer(e.status(), body, null);
        }
    }

    private Answer route(Call call) throws ConsoleException {
        boolean post = call.method().equals("POST");
        if (post && !call.hasWriteHeader()) {
            throw new ConsoleException(403, "FORBIDDEN", "a console POST needs the " + WRITE_HEADER
                    + " header (the console page sends it)");
        }
        if (call.endpoint().equals("login")) {
            requireMethod(call, "POST");
            return "x509".equals(call.parameters().get("method")) ? certificateLogin(call) : login(call);
        }
        if (call.endpoint().equals("tls")) {
            requireMethod(call, "GET");
            return Answer.ok(tls(call));
        }
        ConsoleLogins.Login login = logins.find(call.token()).orElseThrow(() -> new ConsoleException(401,
                "LOGIN_REQUIRED", "log in first: POST /console/api/login with user and password"));
        Map<String, String> p = call.parameters();
        switch (call.endpoint()) {
            case "logout" -> {
                requireMethod(call, "POST");
                logins.end(call.token());
                return new Answer(200, Map.of("logged_out", true), COOKIE + "=; Path=/console; Max-Age=0; HttpOnly;"
                        + " SameSite=Strict" + (call.secure() ? "; Secure" : ""));
            }
            case "whoami" -> {
                requireMethod(call, "GET");
                return Answer.ok(describe(login));
            }
            case "node" -> {
                requireMethod(call, "GET");
                return Answer.ok(tree.node(login.identities(), path(p)));
            }
            case "children" -> {
                requireMethod(call, "GET");
                return Answer.ok(tree.children(login.identities(), path(p), optional(p, "after"),
                        p.getOrDefault("prefix", ""), number(p, "limit", 100)));
            }
            case "create" -> {
                requireMethod(call, "POST");
                return Answer.ok(tree.create(login.identities(), path(p), data(p),
                        "true".equals(p.get("sequential")), "creator".equals(p.getOrDefault("acl", "open"))));
            }
            case "set" -> {
                requireMethod(call, "POST");
                return Answer.ok(tree.setData(login.identities(), path(p), data(p), requiredNumber(p, "version")));
            }
            case "delete" -> {
                requireMethod(call, "POST");
                return Answer.ok(tree.delete(login.identities(), path(p), requiredNumber(p, "version")));
            }
            case "sessions" -> {
                requireMethod(call, "GET");
                return Answer.ok(activity.sessions(optional(p, "after"), number(p, "limit", 500)));
            }
            case "watches" -> {
                requireMethod(call, "GET");
                return Answer.ok(activity.watches(p.getOrDefault("prefix", ""), optional(p, "after"),
                        number(p, "limit", 200)));
            }
            case "ensemble" -> {
                requireMethod(call, "GET");
                return Answer.ok(ensemble.ensemble());
            }
            case "stats" -> {
                requireMethod(call, "GET");
                return Answer.ok(stats.stats());
            }
            default -> throw new ConsoleException(404, "NOT_FOUND", "no console endpoint " + call.endpoint());
        }
    }

    private Answer login(Call call) throws ConsoleException {
        String user = call.parameters().getOrDefault("user", "");
        String password = call.parameters().get("password");
        if (user.isEmpty() || user.contains(":") || password == null) {
            throw new ConsoleException(400, "BAD_REQUEST", "log in with a digest user (no ':') and its password,"
                    + " as for addauth digest user:password");
        }
        return started(logins.identify(user, password, call.address()), call);
    }

    /** A login as the x509 identity of the certificate the browser presented in the TLS handshake. */
    private Answer certificateLogin(Call call) throws ConsoleException {
        if (call.certificate() == null) {
            throw new ConsoleException(401, "CERTIFICATE_REQUIRED", call.secure()
                    ? "this connection presented no client certificate (the browser offers one when the AdminServer"
                    + " has ssl.quorum.trustStore.location set and the certificate chains to it); log in with a"
                    + " digest user and password instead"
                    : "a certificate login needs HTTPS (admin.forceHttps or admin.portUnification) and a client"
                    + " certificate; log in with a digest user and password instead");
        }
        String id = x509.idOf(call.certificate()).orElseThrow(() -> new ConsoleException(403, "NO_IDENTITY",
                "the certificate of " + call.certificate().getSubjectX500Principal().getName() + " gives no x509"
                + " identity under ssl.clientCertIdType=SAN: no subject alternative name of type "
                + x509.sanType() + " matches ssl.clientCertIdSanMatchRegex and ssl.clientCertIdSanExtractRegex"));
        return started(logins.identifyCertificate(id, call.address()), call);
    }

    private Answer started(ConsoleLogins.Login login, Call call) {
        String token = logins.start(login);
        // Secure over HTTPS: a browser must not send a login made there on a plain-HTTP connection (admin.portUnification)
        return new Answer(200, describe(login), COOKIE + "=" + token + "; Path=/console; HttpOnly; SameSite=Strict"
                + (call.secure() ? "; Secure" : ""));
    }

    /** What the login page needs to offer a certificate login: the connection's TLS and certificate, without a login. */
    private Map<String, Object> tls(Call call) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("https", call.secure());
        if (call.certificate() == null) {
            out.put("certificate", null);
            return out;
        }
        Map<String, Object> certificate = new LinkedHashMap<>();
        certificate.put("subject", call.certificate().getSubjectX500Principal().getName());
        certificate.put("x509", x509.idOf(call.certificate()).orElse(null));
        out.put("certificate", certificate);
        return out;
    }

    private static Map<String, Object> describe(ConsoleLogins.Login login) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("scheme", login.scheme());
        out.put("user", login.user());
        out.put("super", login.superUser());
        List<String> ids = login.identities().ids().stream().map(id -> id.scheme() + ":" + id.id()).toList();
        out.put("identities", ids);
        return out;
    }

    private static void requireMethod(Call call, String method) throws ConsoleException {
        if (!call.method().equals(method)) {
            throw new ConsoleException(405, "METHOD_NOT_ALLOWED", call.endpoint() + " takes " + method + ", not "
                    + call.method());
        }
    }

    private static String path(Map<String, String> p) throws ConsoleException {
        String path = p.get("path");
        if (path == null || !path.startsWith("/")) {
            throw new ConsoleException(400, "BAD_REQUEST", "path must be an absolute znode path such as /app, not "
                    + (path == null ? "missing" : "'" + path + "'"));
        }
        return path;
    }

    private static String optional(Map<String, String> p, String key) {
        String value = p.get(key);
        return value == null || value.isEmpty() ? null : value;
    }

    private static byte[] data(Map<String, String> p) throws ConsoleException {
        String encoded = p.getOrDefault("data_base64", "");
        try {
            return Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new ConsoleException(400, "BAD_REQUEST", "data_base64 is not base64: " + e.getMessage());
        }
    }

    private static int number(Map<String, String> p, String key, int otherwise) throws ConsoleException {
        return p.containsKey(key) ? requiredNumber(p, key) : otherwise;
    }

    private static int requiredNumber(Map<String, String> p, String key) throws ConsoleException {
        String value = p.get(key);
        try {
            return Integer.parseInt(value == null ? "" : value.trim());
        } catch (NumberFormatException e) {
            throw new ConsoleException(400, "BAD_REQUEST", key + " must be a whole number, not "
                    + (value == null ? "missing" : "'" + value + "'"));
        }
    }
}

package dev.warden.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** A plain HTTP client of the console's JSON API, holding one login's cookie, for the tests. */
final class ConsoleHttp {
    /** A response: its status and JSON body. */
    record Reply(int status, JsonNode json) {
        String text(String field) {
            return json.path(field).asText();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http;
    private final String base;
    private String cookie;
    /** The Set-Cookie header of the last login, whole. */
    private String loginCookieHeader;

    ConsoleHttp(int adminPort) {
        this("http://127.0.0.1:" + adminPort, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    /** A client of the console at {@code origin} ("https://127.0.0.1:port"), through {@code http} (its TLS set up). */
    ConsoleHttp(String origin, HttpClient http) {
        this.base = origin + "/console/api/";
        this.http = http;
    }

    /** A login as the x509 identity of the client certificate this client's TLS presents. */
    Reply loginWithCertificate() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "login"))
                .header("X-Warden-Console", "1").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("method=x509")));
        response.headers().firstValue("Set-Cookie").ifPresent(c -> {
            cookie = c.split(";", 2)[0];
            loginCookieHeader = c;
        });
        return reply(response);
    }

    String loginCookieHeader() {
        return loginCookieHeader;
    }

    Reply login(String user, String password) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "login"))
                .header("X-Warden-Console", "1").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(Map.of("user", user, "password", password)))));
        response.headers().firstValue("Set-Cookie").ifPresent(c -> {
            cookie = c.split(";", 2)[0];
            loginCookieHeader = c;
        });
        return reply(response);
    }

    Reply get(String endpoint, Map<String, String> parameters) throws Exception {
        String query = parameters.isEmpty() ? "" : "?" + form(parameters);
        return reply(send(withCookie(HttpRequest.newBuilder(URI.create(base + endpoint + query))).GET()));
    }

    Reply post(String endpoint, Map<String, String> parameters) throws Exception {
        return reply(send(withCookie(HttpRequest.newBuilder(URI.create(base + endpoint)))
                .header("X-Warden-Console", "1").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(parameters)))));
    }

    /** A POST as a page of another site could make it: no X-Warden-Console header. */
    Reply postWithoutHeader(String endpoint, Map<String, String> parameters) throws Exception {
        return reply(send(withCookie(HttpRequest.newBuilder(URI.create(base + endpoint)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(parameters)))));
    }

    HttpResponse<String> raw(HttpRequest.Builder request) throws Exception {
        return send(request);
    }

    static Map<String, String> params(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static String text(JsonNode node) {
        return new String(Base64.getDecoder().decode(node.path("data_base64").asText()), StandardCharsets.UTF_8);
    }

    private HttpRequest.Builder withCookie(HttpRequest.Builder request) {
        return cookie == null ? request : request.header("Cookie", cookie);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Reply reply(HttpResponse<String> response) throws Exception {
        return new Reply(response.statusCode(), JSON.readTree(response.body()));
    }

    private static String form(Map<String, String> parameters) {
        return parameters.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }
}

package dev.warden.server.admin;

import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import dev.warden.server.common.Json;
import dev.warden.server.net.ServerContext;
import dev.warden.state.auth.AclChecker;
import dev.warden.state.auth.AuthIdentities;
import dev.warden.state.auth.Digests;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.stream.ChunkedNioFile;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP connection of the AdminServer: {@code GET <commandURL>} lists the commands,
 * {@code GET|POST <commandURL>/<name>} runs one and answers JSON ({@code "command"} and
 * {@code "error"} beside the command's fields, as ZooKeeper answers). {@code snapshot} streams a
 * consistent snapshot file and {@code restore} takes one as its POST body ({@link RestoreAdminCommand});
 * both need an {@code Authorization} header that grants ALL on {@code /}, as in ZooKeeper.
 */
final class AdminHttpHandler extends SimpleChannelInboundHandler<HttpObject> {
    private static final Logger log = LoggerFactory.getLogger(AdminHttpHandler.class);
    static final String MISSING_AUTH = "Auth info is missing for the command";
    static final String NOT_AUTHORIZED = "Not authorized for the command";

    private final ServerContext server;
    private final AdminCommands commands;
    private final BackupSource backups;
    private final String commandUrl;
    private final Path scratchDir;
    /** admin.rateLimiterIntervalInMS for the snapshot command, as ZooKeeper limits it. */
    private final AdminRateLimit snapshotLimit;
    /** admin.snapshot.enabled: false answers every snapshot command 503, as in ZooKeeper. */
    private final boolean snapshotEnabled;
    private final RestoreAdminCommand restore;
    private HttpRequest request;
    /** The body of a restore being received, else null; other commands' bodies are not kept. */
    private RestoreBody restoreBody;
    /**
     * A request already answered before its body was read (refused, or too large): the rest of
     * it is read and dropped, so the client sees the answer rather than a reset, then the
     * connection is closed.
     */
    private boolean discardingRest;

    AdminHttpHandler(ServerContext server, AdminCommands commands, BackupSource backups, String commandUrl,
                     Path scratchDir, RestoreAdminCommand restore, AdminRateLimit snapshotLimit, boolean snapshotEnabled) {
        this.server = server;
        this.snapshotEnabled = snapshotEnabled;
        this.snapshotLimit = snapshotLimit;
        this.commands = commands;
        this.backups = backups;
        this.commandUrl = commandUrl;
        this.scratchDir = scratchDir;
        this.restore = restore;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject message) throws Exception {
        if (message instanceof HttpRequest head) {
            request = head;
            discardingRest = false;
            restoreBody = isRestore(head) ? startRestoreBody(ctx, head) : null;
        }
        if (discardingRest) {
            if (message instanceof LastHttpContent) {
                ctx.close();
            }
            return;
        }
        if (message instanceof HttpContent content && restoreBody != null && !restoreBody.append(content.content())) {
            refuseTooLarge(ctx, restoreBody.receivedBytes());
            return;
        }
        if (message instanceof LastHttpContent && request != null) {
            HttpRequest current = request;
            request = null;
            answer(ctx, current);
        }
    }

    private boolean isRestore(HttpRequest head) {
        String path = new QueryStringDecoder(head.uri()).path();
        return path.startsWith(commandUrl + "/") && head.method().equals(HttpMethod.POST)
                && commands.find(path.substring(commandUrl.length() + 1))
                        .map(command -> command.name().equals("restore")).orElse(false);
    }

    /**
     * A buffer for a restore's body, or null if the request was answered already: 401 or 403
     * (checked before a byte of the body is kept), or 413 if its declared length is too large.
     */
    private RestoreBody startRestoreBody(ChannelHandlerContext ctx, HttpRequest head) {
        Optional<HttpResponseStatus> refused = authenticate(head, identities(ctx));
        if (refused.isPresent()) {
            answerBeforeBody(ctx, refused.get(),
                    refused.get() == HttpResponseStatus.UNAUTHORIZED ? MISSING_AUTH : NOT_AUTHORIZED);
            return null;
        }
        long declaredBytes = HttpUtil.getContentLength(head, -1L);
        if (declaredBytes > RestoreAdminCommand.maxBodyBytes()) {
            refuseTooLarge(ctx, declaredBytes);
            return null;
        }
        if (HttpUtil.is100ContinueExpected(head)) {
            // curl asks before sending a large body; without an answer it waits a second first
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        }
        return new RestoreBody(RestoreAdminCommand.maxBodyBytes(), (int) Math.max(0, declaredBytes));
    }

    private void refuseTooLarge(ChannelHandlerContext ctx, long bodyBytes) {
        restoreBody = null;
        answerBeforeBody(ctx, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, RestoreAdminCommand.tooLarge(bodyBytes));
    }

    private void answerBeforeBody(ChannelHandlerContext ctx, HttpResponseStatus status, String error) {
        discardingRest = true;
        request = null;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("command", "restore");
        body.put("error", error);
        ByteBuf content = Unpooled.copiedBuffer(Json.write(body), StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            ctx.close(); // admin.idleTimeout
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.info("admin connection from {} closed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    private void answer(ChannelHandlerContext ctx, HttpRequest head) throws IOException {
        QueryStringDecoder uri = new QueryStringDecoder(head.uri());
        String path = uri.path();
        boolean keepAlive = HttpUtil.isKeepAlive(head);
        if (path.equals(commandUrl) || path.equals(commandUrl + "/")) {
            send(ctx, HttpResponseStatus.OK, "text/html", commandList(), keepAlive);
            return;
        }
        if (!path.startsWith(commandUrl + "/")) {
            send(ctx, HttpResponseStatus.NOT_FOUND, "text/plain", "Not found: " + path + " (commands are under "
                    + commandUrl + ")\n", keepAlive);
            return;
        }
        String name = path.substring(commandUrl.length() + 1);
        Map<String, String> parameters = new LinkedHashMap<>();
        uri.parameters().forEach((key, values) -> parameters.put(key, values.isEmpty() ? "" : values.get(0)));
        Optional<AdminCommand> found = commands.find(name);
        if (found.isEmpty()) {
            sendJson(ctx, HttpResponseStatus.OK, name, new LinkedHashMap<>(), "Unknown command: " + name, keepAlive);
            return;
        }
        AdminCommand command = found.get();
        AuthIdentities who = null;
        if (command.needsAuth()) {
            who = identities(ctx);
            Optional<HttpResponseStatus> refused = authenticate(head, who);
            if (refused.isPresent()) {
                sendJson(ctx, refused.get(), command.name(), new LinkedHashMap<>(),
                        refused.get() == HttpResponseStatus.UNAUTHORIZED ? MISSING_AUTH : NOT_AUTHORIZED, keepAlive);
                return;
            }
        }
        switch (command.name()) {
            case "snapshot" -> snapshot(ctx, parameters, keepAlive);
            case "restore" -> restore(ctx, head, who, keepAlive);
            default -> run(ctx, command, parameters, keepAlive);
        }
    }

    private void restore(ChannelHandlerContext ctx, HttpRequest head, AuthIdentities who, boolean keepAlive) {
        RestoreBody body = restoreBody;
        restoreBody = null;
        if (!head.method().equals(HttpMethod.POST) || body == null) {
            sendJson(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "restore", new LinkedHashMap<>(), "restore takes the"
                    + " snapshot file as the body of a POST: curl -H 'Content-Type:application/octet-stream' -X POST"
                    + " --data-binary @FILE " + commandUrl + "/restore", keepAlive);
            return;
        }
        restore.run(body.bytes(), who, (status, fields, error) ->
                sendJson(ctx, status, "restore", new LinkedHashMap<>(fields), error, keepAlive));
    }

    private void run(ChannelHandlerContext ctx, AdminCommand command, Map<String, String> parameters,
                     boolean keepAlive) {
        Map<String, Object> response = new LinkedHashMap<>();
        String error;
        try {
            error = command.body().run(parameters, response);
        } catch (AdminCommands.CommandError refused) {
            response.clear();
            error = refused.getMessage();
        } catch (Exception failed) {
            log.warn("admin command {} failed", command.name(), failed);
            response.clear();
            error = failed.toString();
        }
        if (error != null) {
            response.clear();
        }
        sendJson(ctx, HttpResponseStatus.OK, command.name(), response, error, keepAlive);
    }

    private AuthIdentities identities(ChannelHandlerContext ctx) {
        String address = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress().getHostAddress();
        return new AuthIdentities(address);
    }

    /**
     * ZooKeeper's rule: the Authorization header is "scheme credentials" (digest user:password,
     * or ip); the identities it gives (added to {@code identities}) must hold ALL on /. Empty when
     * allowed, else 401 (no header) or 403.
     */
    private Optional<HttpResponseStatus> authenticate(HttpRequest head, AuthIdentities identities) {
        String header = head.headers().get(HttpHeaderNames.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            return Optional.of(HttpResponseStatus.UNAUTHORIZED);
        }
        String[] parts = header.trim().split(" ", 2);
        if (server.config().skipAcl()) {
            identities.skipAclChecks();
        }
        if (parts[0].equals("digest") && parts.length == 2 && parts[1].contains(":")) {
            String id = Digests.idFor(parts[1]);
            identities.add(new Id("digest", id));
            if (id.equals(server.config().superDigest())) {
                identities.add(new Id(AuthIdentities.SUPER_SCHEME, ""));
            }
        } else if (!parts[0].equals("ip")) {
            return Optional.of(HttpResponseStatus.FORBIDDEN);
        }
        var tree = server.stateMachine().tree();
        var lock = tree.readLock();
        lock.lock();
        try {
            return AclChecker.permits(tree.node("/").acl(), Perms.ALL, identities) ? Optional.empty()
                    : Optional.of(HttpResponseStatus.FORBIDDEN);
        } finally {
            lock.unlock();
        }
    }

    /**
     * ZooKeeper's snapshot command: with streaming (the default) the snapshot file is the body
     * and its zxid the "last_zxid" header; without, the snapshot is only written.
     */
    private void snapshot(ChannelHandlerContext ctx, Map<String, String> parameters, boolean keepAlive)
            throws IOException {
        if (!snapshotEnabled) {
            sendJson(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "snapshot", new LinkedHashMap<>(), "Snapshot command"
                    + " is disabled (admin.snapshot.enabled=false)", keepAlive);
            return;
        }
        long waitMs = snapshotLimit.tryAcquire();
        if (waitMs > 0) {
            sendJson(ctx, HttpResponseStatus.TOO_MANY_REQUESTS, "snapshot", new LinkedHashMap<>(), "snapshot is rate"
                    + " limited: one per admin.rateLimiterIntervalInMS (" + snapshotLimit.intervalMs() + " ms); try"
                    + " again in " + waitMs + " ms", keepAlive);
            return;
        }
        Files.createDirectories(scratchDir);
        Path dir = Files.createTempDirectory(scratchDir, "admin-snapshot-");
        Path file = backups.writeConsistentSnapshot(dir);
        String zxid = file.getFileName().toString().replaceAll("^[^.]*\\.", "");
        long lastZxid = Long.parseUnsignedLong(zxid, 16);
        boolean streaming = !"false".equalsIgnoreCase(parameters.getOrDefault("streaming", "true"));
        if (!streaming) {
            deleteQuietly(file, dir);
            Map<String, Object> response = new LinkedHashMap<>();
            response.put("last_zxid", lastZxid);
            sendJson(ctx, HttpResponseStatus.OK, "snapshot", response, null, keepAlive);
            return;
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
        head.headers().set(HttpHeaderNames.CONTENT_LENGTH, channel.size());
        head.headers().set(HttpHeaderNames.CONTENT_DISPOSITION, "attachment; filename=" + file.getFileName());
        head.headers().set("last_zxid", lastZxid);
        ctx.write(head);
        ctx.writeAndFlush(new HttpChunkedInput(new ChunkedNioFile(channel))).addListener(done -> {
            channel.close();
            deleteQuietly(file, dir);
            if (!keepAlive) {
                ctx.close();
            }
        });
    }

    private String commandList() {
        StringBuilder html = new StringBuilder();
        List<String> names = commands.names();
        for (String name : names) {
            html.append("<a href=\"").append(commandUrl).append('/').append(name).append("\">").append(name)
                    .append("</a>\n<br/>\n");
        }
        return html.toString();
    }

    private void sendJson(ChannelHandlerContext ctx, HttpResponseStatus status, String command,
                          Map<String, Object> fields, String error, boolean keepAlive) {
        Map<String, Object> body = new LinkedHashMap<>(fields);
        body.put("command", command);
        body.put("error", error);
        send(ctx, status, "application/json", Json.write(body), keepAlive);
    }

    private static void send(ChannelHandlerContext ctx, HttpResponseStatus status, String contentType, String text,
                             boolean keepAlive) {
        ByteBuf content = Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static void deleteQuietly(Path file, Path dir) {
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            log.warn("could not remove the admin snapshot {}: {}", file, e.toString());
        }
    }
}

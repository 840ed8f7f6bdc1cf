package dev.warden.server.admin;

import dev.warden.protocol.Id;
import dev.warden.protocol.Perms;
import dev.warden.server.auth.AclChecker;
import dev.warden.server.auth.AuthIdentities;
import dev.warden.server.auth.Digests;
import dev.warden.server.common.Json;
import dev.warden.server.net.ServerContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
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
 * consistent snapshot file; it and {@code restore} need an {@code Authorization} header that
 * grants ALL on {@code /}, as in ZooKeeper.
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
    private HttpRequest request;

    AdminHttpHandler(ServerContext server, AdminCommands commands, BackupSource backups, String commandUrl,
                     Path scratchDir) {
        this.server = server;
        this.commands = commands;
        this.backups = backups;
        this.commandUrl = commandUrl;
        this.scratchDir = scratchDir;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject message) throws Exception {
        if (message instanceof HttpRequest head) {
            request = head;
        }
        // the request's body (restore's snapshot) is not read: restore is answered without one
        if (message instanceof LastHttpContent && request != null) {
            HttpRequest current = request;
            request = null;
            answer(ctx, current);
        }
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
        if (command.needsAuth()) {
            Optional<HttpResponseStatus> refused = authenticate(ctx, head);
            if (refused.isPresent()) {
                sendJson(ctx, refused.get(), command.name(), new LinkedHashMap<>(),
                        refused.get() == HttpResponseStatus.UNAUTHORIZED ? MISSING_AUTH : NOT_AUTHORIZED, keepAlive);
                return;
            }
        }
        switch (command.name()) {
            case "snapshot" -> snapshot(ctx, parameters, keepAlive);
            case "restore" -> sendJson(ctx, HttpResponseStatus.NOT_IMPLEMENTED, command.name(), new LinkedHashMap<>(),
                    "restore is not supported by Warden while it runs: a backup taken with the snapshot command is a"
                            + " Warden snapshot file; to go back to it, stop the server, put the file alone in the"
                            + " snapshots/ directory of an empty dataDir and start once with --discard-unprovable"
                            + " (docs/SERVER.md, \"Admin HTTP API\")",
                    keepAlive);
            default -> run(ctx, command, parameters, keepAlive);
        }
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

    /**
     * ZooKeeper's rule: the Authorization header is "scheme credentials" (digest user:password,
     * or ip); the identities it gives must hold ALL on /. Empty when allowed, else 401 (no
     * header) or 403.
     */
    private Optional<HttpResponseStatus> authenticate(ChannelHandlerContext ctx, HttpRequest head) {
        String header = head.headers().get(HttpHeaderNames.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            return Optional.of(HttpResponseStatus.UNAUTHORIZED);
        }
        String[] parts = header.trim().split(" ", 2);
        String address = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress().getHostAddress();
        AuthIdentities identities = new AuthIdentities(address);
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

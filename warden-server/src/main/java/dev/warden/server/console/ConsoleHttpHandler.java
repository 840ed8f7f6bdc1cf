package dev.warden.server.console;

import dev.warden.server.common.Json;
import dev.warden.server.net.TlsSniffer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Takes the requests under {@code /console} off an admin connection (everything else goes on to
 * the admin commands' handler): the page's files, and API calls, whose form bodies it reads up
 * to {@link Console#maxBodyBytes} (a larger one is answered 413 and the connection closed) and
 * which it runs on the console's threads.
 */
final class ConsoleHttpHandler extends ChannelInboundHandlerAdapter {
    private static final String API = Console.PATH + "/api/";
    /** CSP without inline scripts or styles: the page loads only its own files. */
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

    private final Console console;
    private HttpRequest request;
    private ByteArrayOutputStream body;
    /** Set once a request is refused as too large: its remaining content is released unread. */
    private boolean discarding;
    /** Bytes of a refused request's content released unread so far. */
    private long discardedBytes;

    ConsoleHttpHandler(Console console) {
        this.console = console;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof HttpRequest head) {
            String path = new QueryStringDecoder(head.uri()).path();
            if (!path.equals(Console.PATH) && !path.startsWith(Console.PATH + "/")) {
                request = null;
                ctx.fireChannelRead(message);
                return;
            }
            request = head;
            body = new ByteArrayOutputStream();
            discarding = false;
            if (HttpUtil.getContentLength(head, 0L) > console.maxBodyBytes) {
                refuseTooLarge(ctx);
            }
        } else if (request == null) {
            ctx.fireChannelRead(message);
            return;
        }
        try {
            if (message instanceof HttpContent content && discarding) {
                // Read the rest before closing, so the client gets to read the 413 instead of a
                // reset while it is still sending; but only so much, then close regardless.
                discardedBytes += content.content().readableBytes();
                if (message instanceof LastHttpContent || discardedBytes > discardLimitBytes()) {
                    ctx.close();
                }
            } else if (message instanceof HttpContent content) {
                ByteBuf bytes = content.content();
                if (body.size() + bytes.readableBytes() > console.maxBodyBytes) {
                    refuseTooLarge(ctx);
                } else {
                    bytes.readBytes(body, bytes.readableBytes());
                }
            }
        } catch (java.io.IOException impossible) {
            throw new IllegalStateException(impossible);
        } finally {
            ReferenceCountUtil.release(message);
        }
        if (message instanceof LastHttpContent) {
            HttpRequest head = request;
            byte[] bytes = body.toByteArray();
            request = null;
            body = null;
            if (!discarding) {
                answer(ctx, head, bytes);
            }
        }
    }

    /**
     * Answers 413 at once, saying the connection will close; the rest of the body is dropped
     * unread, and the connection closed once it has all arrived (or past {@link #discardLimitBytes}).
     */
    private void refuseTooLarge(ChannelHandlerContext ctx) {
        discarding = true;
        discardedBytes = 0;
        body = new ByteArrayOutputStream();
        FullHttpResponse response = response(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                (Json.write(Map.of("error", "TOO_LARGE", "message", "a console request may carry at most "
                        + console.maxBodyBytes + " bytes (a node's data is at most jute.maxbuffer)")) + "\n")
                        .getBytes(StandardCharsets.UTF_8), "application/json");
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(response);
    }

    /** How much of a refused body is read and dropped before the connection is closed anyway. */
    private long discardLimitBytes() {
        return Math.max(16L << 20, 4L * console.maxBodyBytes);
    }

    private void answer(ChannelHandlerContext ctx, HttpRequest head, byte[] bytes) {
        boolean keepAlive = HttpUtil.isKeepAlive(head);
        QueryStringDecoder uri = new QueryStringDecoder(head.uri());
        String path = uri.path();
        if (path.equals(Console.PATH)) {
            FullHttpResponse redirect = response(HttpResponseStatus.FOUND, new byte[0], "text/plain");
            redirect.headers().set(HttpHeaderNames.LOCATION, Console.PATH + "/");
            write(ctx, redirect, keepAlive);
            return;
        }
        if (!path.startsWith(API)) {
            page(ctx, head, path.substring(Console.PATH.length() + 1), keepAlive);
            return;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        uri.parameters().forEach((key, values) -> parameters.put(key, values.isEmpty() ? "" : values.get(0)));
        if (head.method().equals(HttpMethod.POST)) {
            new QueryStringDecoder(new String(bytes, StandardCharsets.UTF_8), StandardCharsets.UTF_8, false, 64)
                    .parameters().forEach((key, values) -> parameters.put(key, values.isEmpty() ? "" : values.get(0)));
        }
        String token = null;
        String cookies = head.headers().get(HttpHeaderNames.COOKIE);
        if (cookies != null) {
            for (Cookie cookie : ServerCookieDecoder.STRICT.decode(cookies)) {
                if (cookie.name().equals(ConsoleApi.COOKIE)) {
                    token = cookie.value();
                }
            }
        }
        String address = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress().getHostAddress();
        SslHandler tls = (SslHandler) ctx.pipeline().get(TlsSniffer.SSL_HANDLER);
        ConsoleApi.Call call = new ConsoleApi.Call(head.method().name(), path.substring(API.length()), parameters,
                token, address, head.headers().contains(ConsoleApi.WRITE_HEADER), tls != null,
                tls == null ? null : clientCertificate(tls));
        try {
            console.workers().execute(() -> {
                ConsoleApi.Answer answer = console.api().handle(call);
                sendJson(ctx, answer.status(), answer.body(), answer.setCookie(), keepAlive);
            });
        } catch (RejectedExecutionException closing) {
            sendJson(ctx, 503, Map.of("error", "NOT_SERVING", "message", "the server is stopping"), null, false);
        }
    }

    /** The certificate the client presented in the handshake (its chain checked against the trust store then), or null. */
    private static X509Certificate clientCertificate(SslHandler tls) {
        try {
            Certificate[] chain = tls.engine().getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate leaf ? leaf : null;
        } catch (SSLPeerUnverifiedException none) {
            return null;
        }
    }

    private void page(ChannelHandlerContext ctx, HttpRequest head, String name, boolean keepAlive) {
        var found = console.resources().find(name);
        if (found.isEmpty() || !head.method().equals(HttpMethod.GET)) {
            FullHttpResponse missing = response(HttpResponseStatus.NOT_FOUND,
                    ("Not found: " + Console.PATH + "/" + name + "\n").getBytes(StandardCharsets.UTF_8), "text/plain");
            write(ctx, missing, keepAlive);
            return;
        }
        FullHttpResponse response = response(HttpResponseStatus.OK, found.get().bytes(), found.get().contentType());
        response.headers().set("Content-Security-Policy", POLICY);
        response.headers().set("X-Frame-Options", "DENY");
        write(ctx, response, keepAlive);
    }

    private static void sendJson(ChannelHandlerContext ctx, int status, Map<String, Object> body, String setCookie,
                                 boolean keepAlive) {
        FullHttpResponse response = response(HttpResponseStatus.valueOf(status),
                (Json.write(body) + "\n").getBytes(StandardCharsets.UTF_8), "application/json");
        if (setCookie != null) {
            response.headers().set(HttpHeaderNames.SET_COOKIE, setCookie);
        }
        write(ctx, response, keepAlive);
    }

    private static FullHttpResponse response(HttpResponseStatus status, byte[] bytes, String contentType) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(bytes));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        response.headers().set("X-Content-Type-Options", "nosniff");
        return response;
    }

    private static void write(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}

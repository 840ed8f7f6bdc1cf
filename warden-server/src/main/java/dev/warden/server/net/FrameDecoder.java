package dev.warden.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into length-prefixed frames, emitted as retained slices of the received
 * bytes that the next handler must release (no copy here: it copies each into its thread's
 * {@link FrameScratch} to decode). On a fresh
 * connection the first four bytes may instead be a four-letter word, emitted as a
 * {@link FourLetterWord}. A negative or oversized length closes the connection: there is no
 * way to resynchronize a stream whose framing is lost.
 *
 * <p>It also tells the next handler, frame by frame, whether the client had already sent more
 * ({@link #takeFrame}): all complete frames of a read are decoded before the first is passed on,
 * so the decoder knows how many are still to come and whether part of another is buffered.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    private static final Logger log = LoggerFactory.getLogger(FrameDecoder.class);
    /** One per JVM: a flood of bad frames from many connections is summarized together. */
    private static final RepeatedWarning BAD_LENGTH = new RepeatedWarning(log, () -> System.nanoTime() / 1_000_000);
    static final Set<String> KNOWN_WORDS = Set.of("ruok", "srvr", "stat", "mntr", "cons", "conf", "envi",
            "wchs", "wchc", "wchp", "dump", "isro", "crst", "srst", "dirs", "gtmk", "stmk", "hash");

    /** A four-letter word; {@code argument} is stmk's trace mask (0 for every other word). */
    record FourLetterWord(String word, long argument) {
    }

    /** stmk carries its new trace mask as an 8-byte big-endian long after the word, as in ZooKeeper. */
    static final String SET_TRACE_MASK = "stmk";

    private final int maxFrameBytes;
    private boolean firstFrame = true;
    /** Frames decoded and passed on, or about to be, that the next handler has not taken yet. */
    private int framesNotTaken;
    /** Whether the bytes received so far end in part of a frame. */
    private boolean partialFrameBuffered;

    FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= 4) {
            int length = in.getInt(in.readerIndex());
            if (firstFrame) {
                String word = asWord(length);
                if (word.equals(SET_TRACE_MASK) && in.readableBytes() < 12) {
                    return; // its mask has not all arrived; a client that never sends it gets no answer
                }
                firstFrame = false;
                if (KNOWN_WORDS.contains(word)) {
                    in.skipBytes(4);
                    long argument = word.equals(SET_TRACE_MASK) ? in.readLong() : 0;
                    out.add(new FourLetterWord(word, argument));
                    in.skipBytes(in.readableBytes());
                    return;
                }
            }
            if (length < 0 || length > maxFrameBytes) {
                if (length > maxFrameBytes) {
                    BAD_LENGTH.warn("closing connection from {}: it sent a frame of {} bytes, above jute.maxbuffer ({}"
                            + " bytes). If the client means it (large data or a long multi), raise jute.maxbuffer on"
                            + " the servers and the clients alike.", ctx.channel().remoteAddress(), length,
                            maxFrameBytes);
                } else {
                    BAD_LENGTH.warn("closing connection from {}: it sent a negative frame length ({}), not the"
                            + " ZooKeeper protocol", ctx.channel().remoteAddress(), length);
                }
                in.skipBytes(in.readableBytes());
                ctx.close();
                return;
            }
            if (in.readableBytes() < 4 + length) {
                break;
            }
            in.skipBytes(4);
            out.add(in.readRetainedSlice(length));
            framesNotTaken++;
        }
        partialFrameBuffered = in.isReadable();
    }

    /**
     * Called by the next handler for every frame it is passed, in order. Returns whether the
     * client had sent more than this frame by the time it was decoded: a further complete frame,
     * or the start of one.
     */
    boolean takeFrame() {
        framesNotTaken--;
        return framesNotTaken > 0 || partialFrameBuffered;
    }

    private static String asWord(int value) {
        char[] chars = {(char) ((value >>> 24) & 0xff), (char) ((value >>> 16) & 0xff), (char) ((value >>> 8) & 0xff),
                (char) (value & 0xff)};
        return new String(chars);
    }
}

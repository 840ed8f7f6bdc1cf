package dev.warden.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decoder tells the next handler, frame by frame, whether the client had already sent more. */
class FrameDecoderTest {
    /** Stands in for the connection: takes every frame and records what the decoder said about it. */
    private static final class Taker extends ChannelInboundHandlerAdapter {
        private final FrameDecoder frames;
        final List<String> seen = new ArrayList<>();

        Taker(FrameDecoder frames) {
            this.frames = frames;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            ByteBuf frame = (ByteBuf) message;
            seen.add(frame.readableBytes() + (frames.takeFrame() ? "+more" : ""));
            frame.release();
        }
    }

    private static ByteBuf frames(int... payloadLengths) {
        ByteBuf bytes = Unpooled.buffer();
        for (int length : payloadLengths) {
            bytes.writeInt(length).writeZero(length);
        }
        return bytes;
    }

    private static Taker channel(EmbeddedChannel[] holder) {
        FrameDecoder decoder = new FrameDecoder(1 << 20);
        Taker taker = new Taker(decoder);
        holder[0] = new EmbeddedChannel(decoder, taker);
        return taker;
    }

    @Test
    void everyFrameButTheLastOfAReadHasMoreBehindIt() {
        EmbeddedChannel[] channel = new EmbeddedChannel[1];
        Taker taker = channel(channel);
        channel[0].writeInbound(frames(10, 20, 30));
        assertEquals(List.of("10+more", "20+more", "30"), taker.seen);

        channel[0].writeInbound(frames(5));
        assertEquals(List.of("10+more", "20+more", "30", "5"), taker.seen);
    }

    @Test
    void partOfTheNextFrameAlreadyReceivedCountsAsMore() {
        EmbeddedChannel[] channel = new EmbeddedChannel[1];
        Taker taker = channel(channel);
        ByteBuf bytes = frames(8, 12);
        bytes.writeInt(40).writeZero(3); // the next frame's length and 3 of its 40 bytes
        channel[0].writeInbound(bytes);
        assertEquals(List.of("8+more", "12+more"), taker.seen);

        channel[0].writeInbound(Unpooled.buffer().writeZero(37)); // the rest of it
        assertEquals(List.of("8+more", "12+more", "40"), taker.seen);

        ByteBuf twoLengthBytes = Unpooled.buffer().writeZero(2);
        channel[0].writeInbound(frames(7).writeBytes(twoLengthBytes));
        assertEquals("7+more", taker.seen.get(3), "two bytes of a next frame's length are more");
    }
}

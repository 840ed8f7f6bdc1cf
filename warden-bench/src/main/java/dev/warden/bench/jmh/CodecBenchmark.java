package dev.warden.bench.jmh;

import dev.warden.protocol.CreateRequest;
import dev.warden.protocol.CreateResponse;
import dev.warden.protocol.GetDataRequest;
import dev.warden.protocol.GetDataResponse;
import dev.warden.protocol.JuteReader;
import dev.warden.protocol.JuteWriter;
import dev.warden.protocol.Perms;
import dev.warden.protocol.ReplyHeader;
import dev.warden.protocol.RequestHeader;
import dev.warden.protocol.SetDataRequest;
import dev.warden.protocol.SetDataResponse;
import dev.warden.protocol.Stat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Encoding and decoding of the records on the hottest paths: a frame body with its header, as
 * the server reads requests and writes replies. The writer is reused between operations, as a
 * connection's encoder would reuse its buffer.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CodecBenchmark {
    private static final String PATH = "/app/service-42/node-42017";
    private static final int VALUE_BYTES = 100;

    private final JuteWriter writer = new JuteWriter(512);
    private byte[] value;
    private Stat stat;
    private GetDataRequest getDataRequest;
    private SetDataRequest setDataRequest;
    private CreateRequest createRequest;
    private GetDataResponse getDataResponse;
    private byte[] getDataRequestFrame;
    private byte[] setDataRequestFrame;
    private byte[] createRequestFrame;
    private byte[] getDataResponseFrame;
    private byte[] setDataResponseFrame;
    private byte[] createResponseFrame;

    @Setup
    public void setUp() {
        value = new byte[VALUE_BYTES];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) ('a' + i % 26);
        }
        stat = new Stat(0x100000123L, 0x100000456L, 1_700_000_000_000L, 1_700_000_100_000L, 7, 3, 0, 0,
                VALUE_BYTES, 2, 0x100000400L);
        getDataRequest = new GetDataRequest(PATH, true);
        setDataRequest = new SetDataRequest(PATH, value, 6);
        createRequest = new CreateRequest(PATH, value, Perms.OPEN_ACL_UNSAFE, 0);
        getDataResponse = new GetDataResponse(value, stat);
        getDataRequestFrame = frame(new RequestHeader(12, 4), getDataRequest);
        setDataRequestFrame = frame(new RequestHeader(13, 5), setDataRequest);
        createRequestFrame = frame(new RequestHeader(14, 1), createRequest);
        getDataResponseFrame = frame(new ReplyHeader(12, 0x100000456L, 0), getDataResponse);
        setDataResponseFrame = frame(new ReplyHeader(13, 0x100000457L, 0), new SetDataResponse(stat));
        createResponseFrame = frame(new ReplyHeader(14, 0x100000458L, 0), new CreateResponse(PATH));
    }

    private static byte[] frame(dev.warden.protocol.Record header, dev.warden.protocol.Record body) {
        JuteWriter out = new JuteWriter(256);
        header.writeTo(out);
        body.writeTo(out);
        return out.toByteArray();
    }

    @Benchmark
    public int encodeGetDataRequest() {
        writer.reset();
        writer.writeInt(12).writeInt(4);
        getDataRequest.writeTo(writer);
        return writer.size();
    }

    @Benchmark
    public int encodeSetDataRequest() {
        writer.reset();
        writer.writeInt(13).writeInt(5);
        setDataRequest.writeTo(writer);
        return writer.size();
    }

    @Benchmark
    public int encodeCreateRequest() {
        writer.reset();
        writer.writeInt(14).writeInt(1);
        createRequest.writeTo(writer);
        return writer.size();
    }

    @Benchmark
    public int encodeGetDataResponse() {
        writer.reset();
        new ReplyHeader(12, 0x100000456L, 0).writeTo(writer);
        getDataResponse.writeTo(writer);
        return writer.size();
    }

    @Benchmark
    public int encodeSetDataResponse() {
        writer.reset();
        new ReplyHeader(13, 0x100000457L, 0).writeTo(writer);
        new SetDataResponse(stat).writeTo(writer);
        return writer.size();
    }

    @Benchmark
    public int encodeStat() {
        writer.reset();
        stat.writeTo(writer);
        return writer.size();
    }

    @Benchmark
    public GetDataRequest decodeGetDataRequest() {
        JuteReader in = new JuteReader(getDataRequestFrame);
        RequestHeader.read(in);
        return GetDataRequest.read(in);
    }

    @Benchmark
    public SetDataRequest decodeSetDataRequest() {
        JuteReader in = new JuteReader(setDataRequestFrame);
        RequestHeader.read(in);
        return SetDataRequest.read(in);
    }

    @Benchmark
    public CreateRequest decodeCreateRequest() {
        JuteReader in = new JuteReader(createRequestFrame);
        RequestHeader.read(in);
        return CreateRequest.read(in);
    }

    @Benchmark
    public GetDataResponse decodeGetDataResponse() {
        JuteReader in = new JuteReader(getDataResponseFrame);
        ReplyHeader.read(in);
        return GetDataResponse.read(in);
    }

    @Benchmark
    public SetDataResponse decodeSetDataResponse() {
        JuteReader in = new JuteReader(setDataResponseFrame);
        ReplyHeader.read(in);
        return SetDataResponse.read(in);
    }

    @Benchmark
    public CreateResponse decodeCreateResponse() {
        JuteReader in = new JuteReader(createResponseFrame);
        ReplyHeader.read(in);
        return CreateResponse.read(in);
    }
}

package io.kproxy.bench.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kproxy.events.Envelope;
import io.kproxy.events.EventCodec;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encode and decode throughput of {@link EventCodec} format v1 for one record per operation
 * (so ops/s = records/s; MB/s = records/s x the encoded size, printed by {@link CodecReport}),
 * next to the same information as compact JSON through Jackson's tree model (the usual
 * alternative: {@code JsonNode} to bytes and back).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class CodecBenchmark {

    /** Which record: {@code slice} (EndpointSlice observation, ~1 KB) or {@code service}. */
    @Param({"slice", "service"})
    public String record;

    private Envelope envelope;
    private byte[] encoded;
    private ObjectMapper mapper;
    private JsonNode jsonTree;
    private byte[] jsonBytes;

    @Setup
    public void setUp() throws IOException {
        envelope = record.equals("slice") ? CodecSamples.slice() : CodecSamples.service();
        encoded = EventCodec.encode(envelope);
        mapper = new ObjectMapper();
        jsonBytes = CompactJson.envelope(envelope);
        jsonTree = mapper.readTree(jsonBytes);
        if (!EventCodec.decode(0, encoded).equals(envelope) || mapper.writeValueAsBytes(jsonTree).length != jsonBytes.length) {
            throw new IllegalStateException("benchmark inputs do not round-trip");
        }
    }

    @Benchmark
    public byte[] encode() {
        return EventCodec.encode(envelope);
    }

    @Benchmark
    public Envelope decode() {
        return EventCodec.decode(0, encoded);
    }

    @Benchmark
    public byte[] jacksonWrite() throws IOException {
        return mapper.writeValueAsBytes(jsonTree);
    }

    @Benchmark
    public JsonNode jacksonRead() throws IOException {
        return mapper.readTree(jsonBytes);
    }
}

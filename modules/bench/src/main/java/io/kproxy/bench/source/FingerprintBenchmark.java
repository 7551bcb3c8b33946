package io.kproxy.bench.source;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kproxy.bench.agent.SyntheticObjects;
import io.kproxy.config.loader.ConfigText;
import io.kproxy.model.Json;
import io.kproxy.source.kube.ObjectFingerprint;
import io.kproxy.source.kube.internal.SipHash128;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the source pays per object to tell whether it changed ({@link ObjectFingerprint}: twice
 * per object at a restart, once for the log's copy and once for the list's), with the agent's
 * compiler (C1 only, as the launchers run it): a Service and an EndpointSlice of 5 endpoints of
 * the scale benchmark ({@link SyntheticObjects}), and the hash alone on 1.5 KB, SipHash-2-4-128
 * beside the SHA-256 it replaced (docs/benchmarks.md, "Scale", seventh pass).
 * {@code -jvmArgsAppend -XX:TieredStopAtLevel=4} measures with C2.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx256m", "-XX:TieredStopAtLevel=1"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class FingerprintBenchmark {

    private Json.Obj service;
    private Json.Obj slice;
    private final byte[] bytes = new byte[1_500];
    private MessageDigest sha256;

    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        Service svc = SyntheticObjects.service(7);
        svc.getMetadata().setResourceVersion("1007");
        EndpointSlice es = SyntheticObjects.slice(7, 0, "2026-11-27T00:00:00Z");
        es.getMetadata().setResourceVersion("2007");
        service = (Json.Obj) ConfigText.parse(Serialization.asJson(svc));
        slice = (Json.Obj) ConfigText.parse(Serialization.asJson(es));
        new Random(1).nextBytes(bytes);
        sha256 = MessageDigest.getInstance("SHA-256");
    }

    @Benchmark
    public ObjectFingerprint service() {
        return ObjectFingerprint.of(service);
    }

    @Benchmark
    public ObjectFingerprint endpointSlice() {
        return ObjectFingerprint.of(slice);
    }

    @Benchmark
    public SipHash128.Words sipHash1500Bytes() {
        return SipHash128.hash(1, 2, bytes, bytes.length);
    }

    @Benchmark
    public byte[] sha256Of1500Bytes() {
        sha256.update(bytes, 0, bytes.length);
        return sha256.digest();
    }
}

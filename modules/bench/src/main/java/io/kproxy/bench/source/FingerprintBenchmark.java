package io.kproxy.bench.source;

import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
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
 * compiler (C1 only, as the launchers run it): a Service and an EndpointSlice of 5 endpoints in
 * the scale benchmark's shape, and the hash alone on 1.5 KB, SipHash-2-4-128 beside the SHA-256 it
 * replaced (docs/benchmarks.md, "Scale", seventh pass). {@code -jvmArgsAppend -XX:TieredStopAtLevel=4}
 * measures with C2.
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
        service = (Json.Obj) ConfigText.parse(Serialization.asJson(new ServiceBuilder()
                .withNewMetadata().withNamespace("ns-7").withName("svc-7").withResourceVersion("1007").endMetadata()
                .withNewSpec().withType("ClusterIP").withClusterIP("172.30.0.8").withClusterIPs("172.30.0.8")
                .addNewPort().withName("http").withPort(80).withProtocol("TCP").endPort().endSpec().build()));
        EndpointSliceBuilder b = new EndpointSliceBuilder().withNewMetadata().withNamespace("ns-7").withName("svc-7-1")
                .withResourceVersion("2007").addToLabels("kubernetes.io/service-name", "svc-7")
                .addToAnnotations("endpoints.kubernetes.io/last-change-trigger-time", "2026-11-27T00:00:00Z").endMetadata()
                .withAddressType("IPv4").addNewPort().withName("http").withPort(8080).withProtocol("TCP").endPort();
        for (int e = 0; e < 5; e++) {
            b.addToEndpoints(new EndpointBuilder().withAddresses("10.0.0." + (35 + e)).withNodeName("node-" + (7 + e))
                    .withNewConditions().withReady(true).endConditions().build());
        }
        slice = (Json.Obj) ConfigText.parse(Serialization.asJson(b.build()));
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

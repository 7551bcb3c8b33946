package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.config.ClientConnectionConfig;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConntrackConfig;
import io.kproxy.config.DetectLocalConfig;
import io.kproxy.config.IptablesConfig;
import io.kproxy.config.IpvsConfig;
import io.kproxy.config.KproxyConfig;
import io.kproxy.config.LocalMode;
import io.kproxy.config.LoggingConfig;
import io.kproxy.config.NftablesConfig;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.ProxyMode;
import io.kproxy.config.WinkernelConfig;
import io.kproxy.model.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** toTree / fromTree: the recorded effective configuration reproduces the configuration exactly. */
class RoundTripTest {

    static Stream<String> upstreamFiles() throws IOException {
        try (Stream<Path> files = Files.list(UpstreamExamplesTest.DIR)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.contains("complete-logging")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("upstreamFiles")
    void upstreamFilesRoundTrip(String name) {
        ProxyConfig c = UpstreamExamplesTest.load(name);
        Json.Obj tree = ConfigTrees.toTree(c);
        assertThat(ConfigTrees.fromTree(tree)).isEqualTo(c);
        // The effective configuration, written out as a file, loads to the same configuration.
        assertThat(ConfigLoader.load(ConfigText.toYaml(tree))).isEqualTo(c);
        assertThat(ConfigLoader.load(ConfigText.toJson(tree))).isEqualTo(c);
    }

    @Test
    void defaultsRoundTripAndTreeUsesUpstreamNames() {
        ProxyConfig d = ConfigTrees.defaults();
        Json.Obj tree = ConfigTrees.toTree(d);
        assertThat(ConfigTrees.fromTree(tree)).isEqualTo(d);
        assertThat(tree.fields().keySet()).startsWith("apiVersion", "kind", "featureGates", "clientConnection", "logging")
                .contains("iptables", "ipvs", "nftables", "winkernel", "detectLocalMode", "conntrack", "kproxy");
        assertThat(tree.object("iptables").fields()).containsEntry("syncPeriod", Json.of("30s"));
        assertThat(tree.object("conntrack").fields()).containsEntry("tcpEstablishedTimeout", Json.of("24h0m0s"));
    }

    @Test
    void randomConfigurationsRoundTripThroughText() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int i = 0; i < 200; i++) {
            ProxyConfig c = random(r);
            Json.Obj tree = ConfigTrees.toTree(c);
            assertThat(ConfigTrees.fromTree(tree)).as("seed %d, iteration %d", seed, i).isEqualTo(c);
            Json reread = ConfigText.parse(i % 2 == 0 ? ConfigText.toYaml(tree) : ConfigText.toJson(tree));
            assertThat(ConfigTrees.fromTree((Json.Obj) reread)).as("seed %d, iteration %d", seed, i).isEqualTo(c);
        }
    }

    private static final String[] STRINGS = {"", "0", "1", "true", "yes", "no", "null", "~", "::", "::0", "a: b", "#c", "- x", "15m0s",
        "10.0.0.0/8", "fd00::/64", "[::1]:80", "'q'", "\"dq\"", "tab\there", "line\nbreak", "ünïcode", "0x1F", "1e3", "-", "@x", "*y"};

    private static ProxyConfig random(Random r) {
        Map<String, Boolean> gates = new LinkedHashMap<>();
        for (int i = r.nextInt(3); i > 0; i--) {
            gates.put("Gate" + r.nextInt(100) + s(r), r.nextBoolean());
        }
        LoggingConfig logging = new LoggingConfig(s(r), d(r), r.nextInt(Integer.MAX_VALUE), List.of(new LoggingConfig.VModuleItem(s(r), r.nextInt(10))),
                new LoggingConfig.FormatOptions(new LoggingConfig.OutputRouting(r.nextBoolean(), s(r)), new LoggingConfig.OutputRouting(r.nextBoolean(), s(r))));
        KproxyConfig kproxy = new KproxyConfig(s(r), d(r), r.nextLong(), new KproxyConfig.RetentionConfig(d(r), r.nextLong()),
                new KproxyConfig.EventLogConfig(pick(r, KproxyConfig.EventLogType.values()), new KproxyConfig.KafkaConfig(s(r), s(r), s(r), s(r))),
                list(r), s(r), s(r));
        return new ProxyConfig(gates, new ClientConnectionConfig(s(r), s(r), s(r), r.nextFloat() * 1000 - 10, r.nextInt()),
                s(r), s(r), s(r), s(r), r.nextBoolean(), r.nextBoolean(), s(r), pick(r, ProxyMode.values()),
                new IptablesConfig(r.nextInt(), r.nextBoolean(), r.nextBoolean(), r.nextBoolean(), d(r), d(r)),
                new IpvsConfig(d(r), d(r), s(r), list(r), r.nextBoolean(), d(r), d(r), d(r)),
                new NftablesConfig(r.nextInt(), r.nextBoolean(), d(r), d(r)), pick(r, LocalMode.values()),
                new DetectLocalConfig(s(r), s(r)), s(r), list(r), r.nextInt(), new ConntrackConfig(r.nextInt(), r.nextInt(), d(r), d(r),
                r.nextBoolean(), d(r), d(r)), d(r), s(r), kproxy, logging,
                new WinkernelConfig(s(r), s(r), r.nextBoolean(), s(r), r.nextBoolean()), r.nextBoolean());
    }

    private static String s(Random r) {
        return STRINGS[r.nextInt(STRINGS.length)];
    }

    private static Duration d(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> Duration.ZERO;
            case 1 -> Duration.ofNanos(r.nextLong());
            case 2 -> Duration.ofMillis(r.nextInt(100_000_000));
            default -> Duration.ofSeconds(r.nextInt(1_000_000), r.nextInt(1_000_000_000));
        };
    }

    private static List<String> list(Random r) {
        List<String> out = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            out.add(s(r));
        }
        return out;
    }

    private static <T> T pick(Random r, T[] values) {
        return values[r.nextInt(values.length)];
    }
}

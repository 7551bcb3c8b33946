package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConfigVersion;
import io.kproxy.config.ProxyConfig;
import io.kproxy.model.Json;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Conversion between v1alpha1 and v1alpha2, on seeded random documents (the seed is in every
 * failure message): a v1alpha2 document survives v1alpha2 → config → v1alpha2 and → v1alpha1
 * (what {@code --write-config-to} writes) exactly; a v1alpha1 document keeps every field v1alpha2
 * has, and the effective sync periods, masquerade bit and masquerade-all, through v1alpha2.
 */
class VersionConversionPropertyTest {

    private static final int CASES = 300;
    private static final String[] MODES = {"iptables", "ipvs", "nftables"};

    @Test
    void v1alpha2RoundTripsThroughBothVersions() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            Json.Obj doc = randomV1alpha2(rnd);
            String text = ConfigText.toYaml(doc);
            String why = "seed=" + seed + " case=" + i + "\n" + text;
            ProxyConfig c = ConfigLoader.load(text);
            Json.Obj v2 = ConfigTrees.toTree(c, ConfigVersion.V1ALPHA2);
            assertThat(ConfigTrees.fromTree(v2)).as(why).isEqualTo(c);
            assertThat(ConfigLoader.load(ConfigText.toYaml(v2))).as(why).isEqualTo(c);
            assertThat(ConfigLoader.load(ConfigText.toYaml(ConfigTrees.toTree(c)))).as(why).isEqualTo(c);
        }
    }

    @Test
    void v1alpha1KeepsWhatV1alpha2HasThroughV1alpha2() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            ProxyConfig from2 = ConfigLoader.load(ConfigText.toYaml(randomV1alpha2(rnd)));
            // A v1alpha1 document with the fields v1alpha2 lacks set too: the other modes' sections, portRange.
            Json.Obj v1 = ConfigTrees.toTree(from2);
            for (String mode : MODES) {
                if (!mode.equals(from2.mode().apiName())) {
                    v1 = v1.with(mode, v1.object(mode).with("syncPeriod", Json.of((1 + rnd.nextInt(600)) + "s"))
                            .with("minSyncPeriod", Json.of((1 + rnd.nextInt(3)) + "s")));
                }
            }
            v1 = v1.with("portRange", Json.of(rnd.nextBoolean() ? "" : "30000-30100"));
            String text = ConfigText.toYaml(v1);
            String why = "seed=" + seed + " case=" + i + "\n" + text;
            ProxyConfig c = ConfigLoader.load(text);
            ProxyConfig back = ConfigLoader.load(ConfigText.toYaml(ConfigTrees.toTree(c, ConfigVersion.V1ALPHA2)));
            assertThat(ConfigTrees.toTree(back, ConfigVersion.V1ALPHA2)).as(why).isEqualTo(ConfigTrees.toTree(c, ConfigVersion.V1ALPHA2));
            assertThat(List.of(back.syncPeriod(), back.minSyncPeriod())).as(why).isEqualTo(List.of(c.syncPeriod(), c.minSyncPeriod()));
            assertThat(back.masqueradeBit()).as(why).isEqualTo(c.masqueradeBit());
            assertThat(back.masqueradeAll()).as(why).isEqualTo(c.masqueradeAll());
            assertThat(back.conntrack()).as(why).isEqualTo(c.conntrack());
            assertThat(back.clusterCIDRs()).as(why).isEqualTo(c.clusterCIDRs());
            assertThat(List.of(back.healthzBindAddress(), back.metricsBindAddress(), back.bindAddress()))
                    .as(why).isEqualTo(List.of(c.healthzBindAddress(), c.metricsBindAddress(), c.bindAddress()));
        }
    }

    /** A valid v1alpha2 document; every minimum sync period is positive (v1alpha2 defaults 0s to 1s). */
    static Json.Obj randomV1alpha2(Random rnd) {
        int sync = 1 + rnd.nextInt(600);
        return Json.obj(
                "apiVersion", Json.of(ConfigVersion.V1ALPHA2.apiVersion()),
                "kind", Json.of("KubeProxyConfiguration"),
                "mode", Json.of(MODES[rnd.nextInt(MODES.length)]),
                "syncPeriod", Json.of(sync + "s"),
                "minSyncPeriod", Json.of((1 + rnd.nextInt(sync)) + "s"),
                "hostnameOverride", Json.of(rnd.nextBoolean() ? "" : "node-" + rnd.nextInt(100)),
                "nodeIPOverride", strings(pick(rnd, List.of(), List.of("10.0.0." + rnd.nextInt(255)), List.of("10.1.2.3", "fd00::3"))),
                "healthzBindAddresses", strings(serverList(rnd)),
                "healthzBindPort", Json.of(1 + rnd.nextInt(65535)),
                "metricsBindAddresses", strings(serverList(rnd)),
                "metricsBindPort", Json.of(1 + rnd.nextInt(65535)),
                "configHardFail", Json.of(rnd.nextBoolean()),
                "enableProfiling", Json.of(rnd.nextBoolean()),
                "iptables", Json.obj("masqueradeBit", Json.of(rnd.nextInt(32)), "localhostNodePorts", Json.of(rnd.nextBoolean())),
                "ipvs", Json.obj("masqueradeBit", Json.of(rnd.nextInt(32)), "scheduler", Json.of(pick(rnd, "", "rr", "wrr", "lc")),
                        "strictARP", Json.of(rnd.nextBoolean()), "tcpTimeout", Json.of(rnd.nextInt(1000) + "s"),
                        "excludeCIDRs", strings(pick(rnd, List.of(), List.of("10.20.0.0/16")))),
                "nftables", Json.obj("masqueradeBit", Json.of(rnd.nextInt(32))),
                "detectLocal", Json.obj("clusterCIDRs", strings(pick(rnd, List.of(), List.of("10.244.0.0/16"),
                        List.of("10.244.0.0/16", "fd00:1::/64")))),
                "nodePortAddresses", strings(pick(rnd, List.of(), List.of("primary"), List.of("10.0.0.0/8", "fd00::/64"))),
                "linux", Json.obj("masqueradeAll", Json.of(rnd.nextBoolean()), "oomScoreAdj", Json.of(rnd.nextInt(2001) - 1000),
                        "conntrack", Json.obj("maxPerCore", Json.of(rnd.nextInt(100_000)), "min", Json.of(rnd.nextInt(200_000)),
                                "tcpEstablishedTimeout", Json.of(timeout(rnd)), "tcpCloseWaitTimeout", Json.of(timeout(rnd)),
                                "tcpBeLiberal", Json.of(rnd.nextBoolean()), "udpTimeout", Json.of(timeout(rnd)),
                                "udpStreamTimeout", Json.of(timeout(rnd)))),
                "windows", Json.obj("runAsService", Json.of(rnd.nextBoolean())),
                "configSyncPeriod", Json.of((1 + rnd.nextInt(3600)) + "s"));
    }

    private static List<String> serverList(Random rnd) {
        return pick(rnd, List.of("0.0.0.0/0"), List.of("::/0"), List.of("0.0.0.0/0", "::/0"), List.of("127.0.0.0/8", "::1/128"),
                List.of("10.3.4." + rnd.nextInt(255) + "/32"), List.of("fd00::" + Integer.toHexString(1 + rnd.nextInt(0xfff)) + "/128"));
    }

    private static String timeout(Random rnd) {
        return rnd.nextInt(4) == 0 ? "0s" : (1 + rnd.nextInt(2_147_483)) + "s";
    }

    @SafeVarargs
    private static <T> T pick(Random rnd, T... options) {
        return options[rnd.nextInt(options.length)];
    }

    private static Json strings(List<String> items) {
        return Json.arr(items.stream().map(s -> (Json) Json.of(s)).toList());
    }
}

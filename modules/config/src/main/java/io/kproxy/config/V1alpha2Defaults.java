package io.kproxy.config;

import io.kproxy.model.Json;

/**
 * Upstream's v1alpha2 defaulting, applied to a {@code kubeproxy.config.k8s.io/v1alpha2} tree
 * before binding: a pure function from the document as written to the document with defaults
 * filled in. Stateless and thread-safe.
 *
 * <p>Matches the KEP-784 draft's {@code pkg/proxy/apis/config/v1alpha2/defaults.go}
 * (SetDefaults_KubeProxyConfiguration, and its {@code defaults_test.go} "empty-config" case) with
 * the same Go semantics as {@link Defaults}: pointer fields ({@code *.masqueradeBit},
 * {@code iptables.localhostNodePorts}, {@code configHardFail}, {@code linux.oomScoreAdj},
 * {@code linux.conntrack.maxPerCore/min/tcp*Timeout}) are defaulted when absent or null, plain
 * ones when zero too. Where it differs from v1alpha1: {@code iptables.localhostNodePorts} defaults
 * to false (v1alpha1: true), {@code configHardFail} to true (v1alpha1's
 * {@code bindAddressHardFail}: false), the health and metrics servers to CIDR lists
 * ({@code 0.0.0.0/0, ::/0} and {@code 127.0.0.0/8, ::1/128}) plus a port, and one top-level
 * {@code syncPeriod} (30s) / {@code minSyncPeriod} (1s) instead of one per mode. {@code mode} and
 * {@code detectLocalMode} follow {@code cmd/kube-proxy/app/server_linux.go} platformApplyDefaults as
 * in v1alpha1; {@code logging} and the {@code kproxy} section are defaulted as in {@link Defaults}.
 */
final class V1alpha2Defaults {

    private V1alpha2Defaults() {
    }

    static Json.Obj apply(Json.Obj config) {
        Json.Obj c = config;
        c = Defaults.setIf(c, "featureGates", Json.Obj.EMPTY, Defaults::isNull);
        c = Defaults.nested(c, "clientConnection", Defaults::clientConnection);
        c = Defaults.nested(c, "logging", Defaults::logging);
        c = Defaults.setIf(c, "healthzBindAddresses", Json.arr(Json.of("0.0.0.0/0"), Json.of("::/0")), V1alpha2Defaults::isEmptyList);
        c = Defaults.setIf(c, "healthzBindPort", Json.of(Defaults.HEALTHZ_PORT), Defaults::isZeroNumber);
        c = Defaults.setIf(c, "metricsBindAddresses", Json.arr(Json.of("127.0.0.0/8"), Json.of("::1/128")), V1alpha2Defaults::isEmptyList);
        c = Defaults.setIf(c, "metricsBindPort", Json.of(Defaults.METRICS_PORT), Defaults::isZeroNumber);
        c = Defaults.setIf(c, "configHardFail", Json.of(true), Defaults::isNull);
        c = Defaults.setIf(c, "mode", Json.of(ProxyMode.IPTABLES.apiName()), Defaults::isEmptyString);
        c = Defaults.nested(c, "iptables", o -> {
            o = Defaults.setIf(o, "masqueradeBit", Json.of(Defaults.MASQUERADE_BIT), Defaults::isNull);
            return Defaults.setIf(o, "localhostNodePorts", Json.of(false), Defaults::isNull);
        });
        c = Defaults.nested(c, "ipvs", o -> Defaults.setIf(o, "masqueradeBit", Json.of(Defaults.MASQUERADE_BIT), Defaults::isNull));
        c = Defaults.nested(c, "nftables", o -> Defaults.setIf(o, "masqueradeBit", Json.of(Defaults.MASQUERADE_BIT), Defaults::isNull));
        c = Defaults.setIf(c, "syncPeriod", Json.of("30s"), Defaults::isZeroDuration);
        c = Defaults.setIf(c, "minSyncPeriod", Json.of("1s"), Defaults::isZeroDuration);
        c = Defaults.setIf(c, "detectLocalMode", Json.of(LocalMode.CLUSTER_CIDR.apiName()), Defaults::isEmptyString);
        c = Defaults.nested(c, "linux", linux -> {
            // qos.KubeProxyOOMScoreAdj
            linux = Defaults.setIf(linux, "oomScoreAdj", Json.of(-999), Defaults::isNull);
            return Defaults.nested(linux, "conntrack", o -> {
                o = Defaults.setIf(o, "maxPerCore", Json.of(32 * 1024), Defaults::isNull);
                o = Defaults.setIf(o, "min", Json.of(128 * 1024), Defaults::isNull);
                o = Defaults.setIf(o, "tcpEstablishedTimeout", Json.of("24h0m0s"), Defaults::isNull);
                // CLOSE_WAIT one hour, see kubernetes/kubernetes#32551.
                return Defaults.setIf(o, "tcpCloseWaitTimeout", Json.of("1h0m0s"), Defaults::isNull);
            });
        });
        c = Defaults.setIf(c, "configSyncPeriod", Json.of("15m0s"), Defaults::isZeroDuration);
        return Defaults.nested(c, "kproxy", Defaults::kproxy);
    }

    /** Go's {@code len(slice) == 0}: absent, null or {@code []}. */
    private static boolean isEmptyList(Json v) {
        return Defaults.isNull(v) || (v instanceof Json.Arr a && a.items().isEmpty());
    }
}

package io.kproxy.config;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Upstream's v1alpha1 defaulting ({@link V1alpha2Defaults} is v1alpha2's), applied to the configuration tree before binding: a pure
 * function from the document as written to the document with defaults filled in.
 *
 * <p>Matches {@code pkg/proxy/apis/config/v1alpha1/defaults.go} (SetDefaults_KubeProxyConfiguration)
 * including its Go semantics: a field that is a pointer upstream ({@code masqueradeBit},
 * {@code localhostNodePorts}, {@code oomScoreAdj}, {@code conntrack.maxPerCore/min/tcp*Timeout})
 * is defaulted only when absent or null, while a plain field ({@code bindAddress}, sync periods,
 * {@code configSyncPeriod}, {@code clientConnection.*}) is defaulted when absent, null or zero
 * ({@code ""}, {@code 0}, {@code "0s"}) — so {@code iptables.minSyncPeriod: 0s} becomes 1s, as
 * upstream. {@code logging} follows component-base's SetRecommendedLoggingConfiguration; {@code mode}
 * and {@code detectLocalMode} follow {@code cmd/kube-proxy/app/server_linux.go}
 * platformApplyDefaults ({@code iptables}, {@code ClusterCIDR}). {@code nodePortAddresses} is left
 * as written: the node projection resolves its mode-dependent default. The {@code kproxy} section
 * is defaulted when absent or null only.
 *
 * <p>A value of the wrong type is left untouched for binding to report. Stateless and thread-safe.
 */
public final class Defaults {

    /** The {@code apiVersion} these defaults are for, and the one kproxy writes ({@link ConfigVersion#V1ALPHA1}). */
    public static final String API_VERSION = "kubeproxy.config.k8s.io/v1alpha1";
    /** The only supported {@code kind}. */
    public static final String KIND = "KubeProxyConfiguration";
    /** {@code ports.ProxyHealthzPort}. */
    public static final int HEALTHZ_PORT = 10256;
    /** {@code ports.ProxyStatusPort}. */
    public static final int METRICS_PORT = 10249;
    /** {@code iptables.masqueradeBit} and {@code nftables.masqueradeBit} (and v1alpha2's {@code ipvs.masqueradeBit}). */
    public static final int MASQUERADE_BIT = 14;

    private Defaults() {
    }

    /** The document with every absent (or zero, per upstream) field set to its default. Never null. */
    public static Json.Obj apply(Json.Obj config) {
        Json.Obj c = config;
        c = setIf(c, "featureGates", Json.Obj.EMPTY, Defaults::isNull);
        c = nested(c, "clientConnection", Defaults::clientConnection);
        c = nested(c, "logging", Defaults::logging);
        c = setIf(c, "bindAddress", Json.of("0.0.0.0"), Defaults::isEmptyString);
        boolean v4 = c.string("bindAddress").flatMap(Defaults::firstIp).map(IpAddress::isIpv4).orElse(false);
        c = address(c, "healthzBindAddress", v4 ? "0.0.0.0" : "[::]", HEALTHZ_PORT);
        c = address(c, "metricsBindAddress", v4 ? "127.0.0.1" : "[::1]", METRICS_PORT);
        c = setIf(c, "mode", Json.of(ProxyMode.IPTABLES.apiName()), Defaults::isEmptyString);
        c = nested(c, "iptables", o -> {
            o = setIf(o, "masqueradeBit", Json.of(MASQUERADE_BIT), Defaults::isNull);
            o = setIf(o, "localhostNodePorts", Json.of(true), Defaults::isNull);
            o = setIf(o, "syncPeriod", Json.of("30s"), Defaults::isZeroDuration);
            return setIf(o, "minSyncPeriod", Json.of("1s"), Defaults::isZeroDuration);
        });
        c = nested(c, "ipvs", o -> setIf(o, "syncPeriod", Json.of("30s"), Defaults::isZeroDuration));
        c = nested(c, "nftables", o -> {
            o = setIf(o, "masqueradeBit", Json.of(MASQUERADE_BIT), Defaults::isNull);
            o = setIf(o, "syncPeriod", Json.of("30s"), Defaults::isZeroDuration);
            return setIf(o, "minSyncPeriod", Json.of("1s"), Defaults::isZeroDuration);
        });
        c = setIf(c, "detectLocalMode", Json.of(LocalMode.CLUSTER_CIDR.apiName()), Defaults::isEmptyString);
        // qos.KubeProxyOOMScoreAdj
        c = setIf(c, "oomScoreAdj", Json.of(-999), Defaults::isNull);
        c = nested(c, "conntrack", o -> {
            o = setIf(o, "maxPerCore", Json.of(32 * 1024), Defaults::isNull);
            o = setIf(o, "min", Json.of(128 * 1024), Defaults::isNull);
            o = setIf(o, "tcpEstablishedTimeout", Json.of("24h0m0s"), Defaults::isNull);
            // CLOSE_WAIT one hour, see kubernetes/kubernetes#32551.
            return setIf(o, "tcpCloseWaitTimeout", Json.of("1h0m0s"), Defaults::isNull);
        });
        c = setIf(c, "configSyncPeriod", Json.of("15m0s"), Defaults::isZeroDuration);
        return nested(c, "kproxy", Defaults::kproxy);
    }

    static Json.Obj clientConnection(Json.Obj o) {
        o = setIf(o, "contentType", Json.of("application/vnd.kubernetes.protobuf"), Defaults::isEmptyString);
        o = setIf(o, "qps", Json.of(5), Defaults::isZeroNumber);
        return setIf(o, "burst", Json.of(10), Defaults::isZeroNumber);
    }

    /** component-base {@code logs/api/v1}: SetRecommendedLoggingConfiguration. */
    static Json.Obj logging(Json.Obj o) {
        o = setIf(o, "format", Json.of("text"), Defaults::isEmptyString);
        o = setIf(o, "flushFrequency", Json.of("5s"), j -> isZeroDuration(j) || isZeroNumber(j));
        return nested(o, "options", opts -> {
            UnaryOperator<Json.Obj> routing = r -> setIf(r, "infoBufferSize", Json.of("0"), Defaults::isNull);
            return nested(nested(opts, "text", routing), "json", routing);
        });
    }

    static Json.Obj kproxy(Json.Obj o) {
        o = setIf(o, "journalDir", Json.of("/var/lib/kproxy/journal"), Defaults::isNull);
        o = setIf(o, "fsyncWindow", Json.of("2ms"), Defaults::isNull);
        o = setIf(o, "snapshotInterval", Json.of(10_000), Defaults::isNull);
        o = nested(o, "retention", r -> {
            r = setIf(r, "maxAge", Json.of("168h0m0s"), Defaults::isNull);
            return setIf(r, "maxBytes", Json.of(1L << 30), Defaults::isNull);
        });
        o = nested(o, "eventLog", e -> {
            e = setIf(e, "type", Json.of(KproxyConfig.EventLogType.LOCAL.apiName()), Defaults::isNull);
            return nested(e, "kafka", k -> {
                k = setIf(k, "bootstrapServers", Json.of(""), Defaults::isNull);
                k = setIf(k, "topic", Json.of(""), Defaults::isNull);
                k = setIf(k, "clientId", Json.of(""), Defaults::isNull);
                return setIf(k, "cluster", Json.of(""), Defaults::isNull);
            });
        });
        o = setIf(o, "serviceCIDRs", Json.Arr.EMPTY, Defaults::isNull);
        o = setIf(o, "adminSocket", Json.of(KproxyConfig.DEFAULT_ADMIN_SOCKET), Defaults::isNull);
        return setIf(o, "adminGroup", Json.of(""), Defaults::isNull);
    }

    /** An empty healthz/metrics address gets the family default; an IP without a port gets the default port. */
    private static Json.Obj address(Json.Obj c, String key, String defaultHost, int port) {
        if (isEmptyString(c.fields().get(key))) {
            return c.with(key, Json.of(defaultHost + ":" + port));
        }
        return c.fields().get(key) instanceof Json.Str(String s) ? c.with(key, Json.of(HostPort.appendPortIfNeeded(s, port))) : c;
    }

    static Json.Obj nested(Json.Obj c, String key, UnaryOperator<Json.Obj> f) {
        Json v = c.fields().get(key);
        if (isNull(v)) {
            return c.with(key, f.apply(Json.Obj.EMPTY));
        }
        return v instanceof Json.Obj o ? c.with(key, f.apply(o)) : c;
    }

    static Json.Obj setIf(Json.Obj c, String key, Json value, Predicate<Json> unset) {
        return unset.test(c.fields().get(key)) ? c.with(key, value) : c;
    }

    static boolean isNull(Json v) {
        return v == null || v instanceof Json.Null;
    }

    static boolean isEmptyString(Json v) {
        return isNull(v) || (v instanceof Json.Str(String s) && s.isEmpty());
    }

    static boolean isZeroNumber(Json v) {
        return isNull(v) || (v instanceof Json.Int(long n) && n == 0) || (v instanceof Json.Dec(double d) && d == 0);
    }

    static boolean isZeroDuration(Json v) {
        if (isNull(v)) {
            return true;
        }
        if (!(v instanceof Json.Str(String s))) {
            return false;
        }
        try {
            return GoDuration.parse(s).isZero();
        } catch (InvalidValueException e) {
            return false;
        }
    }

    /** The first address of a (possibly comma-separated) {@code bindAddress}. */
    private static Optional<IpAddress> firstIp(String bindAddress) {
        return HostPort.ip(bindAddress.split(",", -1)[0]);
    }
}

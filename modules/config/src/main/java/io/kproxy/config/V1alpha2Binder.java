package io.kproxy.config;

import io.kproxy.model.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Binding and conversion: a (defaulted) {@code kubeproxy.config.k8s.io/v1alpha2} tree to
 * {@link ProxyConfig}, as strictly as {@link Binder} binds v1alpha1: an unknown field (a v1alpha1
 * one explained by {@link VersionFields}), a wrong JSON type, an integer out of range or a
 * malformed duration is refused with its path, all collected before throwing. Pure and thread-safe.
 *
 * <p>The conversion is upstream's {@code Convert_v1alpha1_*} of
 * {@code pkg/proxy/apis/config/v1alpha1/conversion.go} read backwards, since {@link ProxyConfig} is
 * kept in v1alpha1's shape: the top-level {@code syncPeriod}/{@code minSyncPeriod} and
 * {@code linux.masqueradeAll} go to the section of the mode in force (the others keep v1alpha1's
 * defaults: 30s, and 1s, or 0s for ipvs); in ipvs mode {@code ipvs.masqueradeBit} is the bit ipvs
 * uses ({@code iptables.masqueradeBit} of {@link ProxyConfig}); {@code linux.conntrack},
 * {@code linux.oomScoreAdj}, {@code windows.runAsService} and {@code detectLocal.clusterCIDRs}
 * (joined with commas) move to their v1alpha1 places; {@code nodeIPOverride} becomes
 * {@code bindAddress} (empty: {@code 0.0.0.0}, "use the Node's addresses");
 * {@code configHardFail} becomes {@code bindAddressHardFail}; the server address lists become one
 * {@code IP:port} each ({@link ServerAddresses}); {@code portRange} (which v1alpha2 lacks) is empty.
 */
final class V1alpha2Binder {

    private V1alpha2Binder() {
    }

    /** @throws ConfigException listing every refused field, with v1alpha2 paths */
    static ProxyConfig bind(Json.Obj obj) {
        List<FieldError> errors = new ArrayList<>();
        TreeReader r = TreeReader.root(obj, errors);
        Binder.typeMeta(r, ConfigVersion.V1ALPHA2);
        ProxyConfig config = read(r, errors);
        if (!errors.isEmpty()) {
            throw new ConfigException(VersionFields.explainUnknown(errors, ConfigVersion.V1ALPHA2));
        }
        return config;
    }

    /**
     * Reads and converts every v1alpha2 field of the object {@code r} reads (not {@code apiVersion}
     * or {@code kind}), adding each refusal, unknown fields included, to {@code errors} ({@code r}'s
     * error list); a refused value reads as its zero value.
     */
    static ProxyConfig read(TreeReader r, List<FieldError> errors) {
        r.accept("apiVersion");
        r.accept("kind");
        ProxyMode mode = r.choice("mode", ProxyMode::fromApiName, ProxyMode.IPTABLES,
                "iptables, ipvs, nftables or blank (blank means the best-available proxy [currently iptables])");
        Duration sync = r.duration("syncPeriod");
        Duration minSync = r.duration("minSyncPeriod");

        List<String> nodeIPs = oneEach(errors, "nodeIPOverride", r.strings("nodeIPOverride"));
        String bindAddress = nodeIPs.isEmpty() ? "0.0.0.0" : String.join(",", nodeIPs);
        String healthz = ServerAddresses.toHostPort(errors, "healthzBindAddresses", r.strings("healthzBindAddresses"),
                "healthzBindPort", r.int32("healthzBindPort"));
        String metrics = ServerAddresses.toHostPort(errors, "metricsBindAddresses", r.strings("metricsBindAddresses"),
                "metricsBindPort", r.int32("metricsBindPort"));

        TreeReader linux = r.object("linux");
        ConntrackConfig conntrack = Binder.conntrack(linux.object("conntrack"));
        boolean masqueradeAll = linux.bool("masqueradeAll");
        int oomScoreAdj = linux.int32("oomScoreAdj");
        linux.finish();

        TreeReader ipt = r.object("iptables");
        int iptablesBit = ipt.int32("masqueradeBit");
        boolean localhostNodePorts = ipt.bool("localhostNodePorts");
        ipt.finish();
        TreeReader ipvsReader = r.object("ipvs");
        int ipvsBit = ipvsReader.int32("masqueradeBit");
        IpvsConfig ipvs = new IpvsConfig(mode == ProxyMode.IPVS ? sync : Duration.ofSeconds(30), mode == ProxyMode.IPVS ? minSync : Duration.ZERO,
                ipvsReader.string("scheduler"), ipvsReader.strings("excludeCIDRs"), ipvsReader.bool("strictARP"),
                ipvsReader.duration("tcpTimeout"), ipvsReader.duration("tcpFinTimeout"), ipvsReader.duration("udpTimeout"));
        ipvsReader.finish();
        if (mode == ProxyMode.IPVS) {
            // Dropped in ipvs mode (ipvs's own bit is used), but upstream validates it in every mode.
            Checks.range(errors, "iptables.masqueradeBit", iptablesBit, 0, 31);
        }
        IptablesConfig iptables = new IptablesConfig(mode == ProxyMode.IPVS ? ipvsBit : iptablesBit,
                mode != ProxyMode.NFTABLES && masqueradeAll, localhostNodePorts, false,
                mode == ProxyMode.IPTABLES ? sync : Duration.ofSeconds(30), mode == ProxyMode.IPTABLES ? minSync : Duration.ofSeconds(1));
        TreeReader nft = r.object("nftables");
        NftablesConfig nftables = new NftablesConfig(nft.int32("masqueradeBit"), mode == ProxyMode.NFTABLES && masqueradeAll,
                mode == ProxyMode.NFTABLES ? sync : Duration.ofSeconds(30), mode == ProxyMode.NFTABLES ? minSync : Duration.ofSeconds(1));
        nft.finish();

        TreeReader dl = r.object("detectLocal");
        DetectLocalConfig detectLocal = new DetectLocalConfig(dl.string("bridgeInterface"), dl.string("interfaceNamePrefix"));
        String clusterCIDR = String.join(",", oneEach(errors, "detectLocal.clusterCIDRs", dl.strings("clusterCIDRs")));
        dl.finish();

        TreeReader windows = r.object("windows");
        boolean runAsService = windows.bool("runAsService");
        windows.finish();

        ProxyConfig config = new ProxyConfig(
                r.boolMap("featureGates"),
                Binder.clientConnection(r.object("clientConnection")),
                r.string("hostnameOverride"),
                bindAddress,
                healthz,
                metrics,
                r.bool("configHardFail"),
                r.bool("enableProfiling"),
                r.string("showHiddenMetricsForVersion"),
                mode,
                iptables,
                ipvs,
                nftables,
                r.choice("detectLocalMode", LocalMode::fromApiName, LocalMode.CLUSTER_CIDR,
                        "ClusterCIDR, NodeCIDR, BridgeInterface, InterfaceNamePrefix or blank (blank means ClusterCIDR)"),
                detectLocal,
                clusterCIDR,
                r.strings("nodePortAddresses"),
                oomScoreAdj,
                conntrack,
                r.duration("configSyncPeriod"),
                "",
                Binder.kproxy(r.object("kproxy")),
                Binder.logging(r.object("logging")),
                Binder.winkernel(r.object("winkernel")),
                runAsService);
        r.finish();
        return config;
    }

    /**
     * The list, each entry refused if it holds a comma: the list is joined with commas into
     * v1alpha1's one string, where {@code ["a,b"]} would read as two entries.
     */
    private static List<String> oneEach(List<FieldError> errors, String field, List<String> items) {
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).contains(",")) {
                errors.add(new FieldError(field + "[" + i + "]", items.get(i), "must be one entry (no commas): list each as its own item"));
            }
        }
        return items;
    }
}

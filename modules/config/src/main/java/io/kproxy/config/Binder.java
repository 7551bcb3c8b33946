package io.kproxy.config;

import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Binding: a (defaulted) configuration tree to {@link ProxyConfig}, strictly. An unknown field, a
 * value of the wrong JSON type, an integer out of its Go type's range, a malformed Go duration, an
 * unsupported enum spelling, or a wrong {@code apiVersion}/{@code kind} is refused with its path;
 * all refusals are collected before throwing (a v1alpha2 field is explained as such:
 * {@link VersionFields}). Field names are upstream's v1alpha1 JSON names
 * ({@code staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go}). Values are not range-checked
 * here: that is {@link Validator}'s job. Pure and thread-safe.
 */
final class Binder {

    private Binder() {
    }

    /** @throws ConfigException listing every refused field */
    static ProxyConfig bind(Json json) {
        if (!(json instanceof Json.Obj obj)) {
            String what = json instanceof Json.Null ? "an empty document" : TreeReader.text(json);
            throw new ConfigException(List.of(new FieldError("", what, "expected a " + Defaults.KIND + " object")));
        }
        List<FieldError> errors = new ArrayList<>();
        TreeReader r = TreeReader.root(obj, errors);
        typeMeta(r, ConfigVersion.V1ALPHA1);
        ProxyConfig config = read(r);
        if (!errors.isEmpty()) {
            throw new ConfigException(VersionFields.explainUnknown(errors, ConfigVersion.V1ALPHA1));
        }
        return config;
    }

    /**
     * Reads every v1alpha1 field of the object {@code r} reads (not {@code apiVersion} or
     * {@code kind}, which the caller checks or, for a recorded tree, ignores), adding each refusal,
     * unknown fields included, to {@code r}'s error list; a refused value reads as its zero value.
     */
    static ProxyConfig read(TreeReader r) {
        r.accept("apiVersion");
        r.accept("kind");
        ProxyConfig config = new ProxyConfig(
                r.boolMap("featureGates"),
                clientConnection(r.object("clientConnection")),
                r.string("hostnameOverride"),
                r.string("bindAddress"),
                r.string("healthzBindAddress"),
                r.string("metricsBindAddress"),
                r.bool("bindAddressHardFail"),
                r.bool("enableProfiling"),
                r.string("showHiddenMetricsForVersion"),
                r.choice("mode", ProxyMode::fromApiName, ProxyMode.IPTABLES,
                        "iptables, ipvs, nftables or blank (blank means the best-available proxy [currently iptables])"),
                iptables(r.object("iptables")),
                ipvs(r.object("ipvs")),
                nftables(r.object("nftables")),
                r.choice("detectLocalMode", LocalMode::fromApiName, LocalMode.CLUSTER_CIDR,
                        "ClusterCIDR, NodeCIDR, BridgeInterface, InterfaceNamePrefix or blank (blank means ClusterCIDR)"),
                detectLocal(r.object("detectLocal")),
                r.string("clusterCIDR"),
                r.strings("nodePortAddresses"),
                r.int32("oomScoreAdj"),
                conntrack(r.object("conntrack")),
                r.duration("configSyncPeriod"),
                r.string("portRange"),
                kproxy(r.object("kproxy")),
                logging(r.object("logging")),
                winkernel(r.object("winkernel")),
                r.bool("windowsRunAsService"));
        r.finish();
        return config;
    }

    /** Checks {@code apiVersion} is {@code version}'s (the loader chose the binder by it) and {@code kind}. */
    static void typeMeta(TreeReader r, ConfigVersion version) {
        String apiVersion = r.string("apiVersion");
        if (!apiVersion.equals(version.apiVersion())) {
            r.error("apiVersion", apiVersion, apiVersion.isEmpty() ? "required: must be " + ConfigVersion.ACCEPTED
                    : "unsupported apiVersion: must be " + ConfigVersion.ACCEPTED);
        }
        String kind = r.string("kind");
        if (!kind.equals(Defaults.KIND)) {
            r.error("kind", kind, kind.isEmpty() ? "required: must be " + Defaults.KIND : "unsupported kind: must be " + Defaults.KIND);
        }
    }

    static ClientConnectionConfig clientConnection(TreeReader r) {
        ClientConnectionConfig c = new ClientConnectionConfig(r.string("kubeconfig"), r.string("acceptContentTypes"),
                r.string("contentType"), r.float32("qps"), r.int32("burst"));
        r.finish();
        return c;
    }

    private static IptablesConfig iptables(TreeReader r) {
        IptablesConfig c = new IptablesConfig(r.int32("masqueradeBit"), r.bool("masqueradeAll"), r.bool("localhostNodePorts"),
                r.bool("snatNodeInternalIP"), r.duration("syncPeriod"), r.duration("minSyncPeriod"));
        r.finish();
        return c;
    }

    private static IpvsConfig ipvs(TreeReader r) {
        IpvsConfig c = new IpvsConfig(r.duration("syncPeriod"), r.duration("minSyncPeriod"), r.string("scheduler"),
                r.strings("excludeCIDRs"), r.bool("strictARP"), r.duration("tcpTimeout"), r.duration("tcpFinTimeout"),
                r.duration("udpTimeout"));
        r.finish();
        return c;
    }

    private static NftablesConfig nftables(TreeReader r) {
        NftablesConfig c = new NftablesConfig(r.int32("masqueradeBit"), r.bool("masqueradeAll"), r.duration("syncPeriod"),
                r.duration("minSyncPeriod"));
        r.finish();
        return c;
    }

    private static DetectLocalConfig detectLocal(TreeReader r) {
        DetectLocalConfig c = new DetectLocalConfig(r.string("bridgeInterface"), r.string("interfaceNamePrefix"));
        r.finish();
        return c;
    }

    static ConntrackConfig conntrack(TreeReader r) {
        ConntrackConfig c = new ConntrackConfig(r.int32("maxPerCore"), r.int32("min"), r.duration("tcpEstablishedTimeout"),
                r.duration("tcpCloseWaitTimeout"), r.bool("tcpBeLiberal"), r.duration("udpTimeout"), r.duration("udpStreamTimeout"));
        r.finish();
        return c;
    }

    static WinkernelConfig winkernel(TreeReader r) {
        WinkernelConfig c = new WinkernelConfig(r.string("networkName"), r.string("sourceVip"), r.bool("enableDSR"),
                r.string("rootHnsEndpointName"), r.bool("forwardHealthCheckVip"));
        r.finish();
        return c;
    }

    /** component-base {@code LoggingConfiguration} ({@code logs/api/v1/types.go}). */
    static LoggingConfig logging(TreeReader r) {
        String format = r.string("format");
        var flush = r.durationOrNanos("flushFrequency");
        int verbosity = r.uint31("verbosity");
        List<LoggingConfig.VModuleItem> vmodule = new ArrayList<>();
        for (TreeReader item : r.objects("vmodule")) {
            vmodule.add(new LoggingConfig.VModuleItem(item.string("filePattern"), item.uint31("verbosity")));
            item.finish();
        }
        TreeReader options = r.object("options");
        LoggingConfig.FormatOptions formatOptions = new LoggingConfig.FormatOptions(routing(options.object("text")),
                routing(options.object("json")));
        options.finish();
        r.finish();
        return new LoggingConfig(format, flush, verbosity, vmodule, formatOptions);
    }

    /** {@code OutputRoutingOptions}; {@code infoBufferSize} is a quantity, written as a string or a plain integer. */
    private static LoggingConfig.OutputRouting routing(TreeReader r) {
        boolean split = r.bool("splitStream");
        String size = r.quantity("infoBufferSize");
        r.finish();
        return new LoggingConfig.OutputRouting(split, size);
    }

    static KproxyConfig kproxy(TreeReader r) {
        String journalDir = r.string("journalDir");
        var fsyncWindow = r.duration("fsyncWindow");
        long snapshotInterval = r.int64("snapshotInterval");
        TreeReader ret = r.object("retention");
        KproxyConfig.RetentionConfig retention = new KproxyConfig.RetentionConfig(ret.duration("maxAge"), ret.int64("maxBytes"));
        ret.finish();
        TreeReader log = r.object("eventLog");
        KproxyConfig.EventLogType type = log.choice("type", KproxyConfig.EventLogType::fromApiName, KproxyConfig.EventLogType.LOCAL,
                "local or kafka");
        TreeReader k = log.object("kafka");
        KproxyConfig.KafkaConfig kafka = new KproxyConfig.KafkaConfig(k.string("bootstrapServers"), k.string("topic"), k.string("clientId"),
                k.string("cluster"));
        k.finish();
        log.finish();
        KproxyConfig c = new KproxyConfig(journalDir, fsyncWindow, snapshotInterval, retention,
                new KproxyConfig.EventLogConfig(type, kafka), r.strings("serviceCIDRs"), r.string("adminSocket"),
                r.string("adminGroup"));
        r.finish();
        return c;
    }
}

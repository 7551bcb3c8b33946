package io.kproxy.config;

import io.kproxy.model.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link ProxyConfig} to its {@code KubeProxyConfiguration} tree: every field, upstream's names and
 * order ({@code types.go}), durations in Go's text form, feature gates sorted by name. Binding the
 * result gives back an equal {@link ProxyConfig}. Pure and thread-safe.
 */
final class TreeWriter {

    private TreeWriter() {
    }

    static Json.Obj write(ProxyConfig c) {
        Map<String, Json> m = new LinkedHashMap<>();
        m.put("apiVersion", Json.of(Defaults.API_VERSION));
        m.put("kind", Json.of(Defaults.KIND));
        Map<String, Json> gates = new LinkedHashMap<>();
        new TreeMap<>(c.featureGates()).forEach((k, v) -> gates.put(k, Json.of(v)));
        m.put("featureGates", new Json.Obj(gates));
        ClientConnectionConfig cc = c.clientConnection();
        m.put("clientConnection", Json.obj("kubeconfig", Json.of(cc.kubeconfig()), "acceptContentTypes", Json.of(cc.acceptContentTypes()),
                "contentType", Json.of(cc.contentType()), "qps", qps(cc.qps()), "burst", Json.of(cc.burst())));
        m.put("logging", logging(c.logging()));
        m.put("hostnameOverride", Json.of(c.hostnameOverride()));
        m.put("bindAddress", Json.of(c.bindAddress()));
        m.put("healthzBindAddress", Json.of(c.healthzBindAddress()));
        m.put("metricsBindAddress", Json.of(c.metricsBindAddress()));
        m.put("bindAddressHardFail", Json.of(c.bindAddressHardFail()));
        m.put("enableProfiling", Json.of(c.enableProfiling()));
        m.put("showHiddenMetricsForVersion", Json.of(c.showHiddenMetricsForVersion()));
        m.put("mode", Json.of(c.mode().apiName()));
        IptablesConfig ipt = c.iptables();
        m.put("iptables", Json.obj("masqueradeBit", Json.of(ipt.masqueradeBit()), "masqueradeAll", Json.of(ipt.masqueradeAll()),
                "localhostNodePorts", Json.of(ipt.localhostNodePorts()), "snatNodeInternalIP", Json.of(ipt.snatNodeInternalIP()),
                "syncPeriod", d(ipt.syncPeriod()), "minSyncPeriod", d(ipt.minSyncPeriod())));
        IpvsConfig ipvs = c.ipvs();
        m.put("ipvs", Json.obj("syncPeriod", d(ipvs.syncPeriod()), "minSyncPeriod", d(ipvs.minSyncPeriod()), "scheduler", Json.of(ipvs.scheduler()),
                "excludeCIDRs", strings(ipvs.excludeCIDRs()), "strictARP", Json.of(ipvs.strictARP()), "tcpTimeout", d(ipvs.tcpTimeout()),
                "tcpFinTimeout", d(ipvs.tcpFinTimeout()), "udpTimeout", d(ipvs.udpTimeout())));
        NftablesConfig nft = c.nftables();
        m.put("nftables", Json.obj("masqueradeBit", Json.of(nft.masqueradeBit()), "masqueradeAll", Json.of(nft.masqueradeAll()),
                "syncPeriod", d(nft.syncPeriod()), "minSyncPeriod", d(nft.minSyncPeriod())));
        WinkernelConfig w = c.winkernel();
        m.put("winkernel", Json.obj("networkName", Json.of(w.networkName()), "sourceVip", Json.of(w.sourceVip()), "enableDSR", Json.of(w.enableDSR()),
                "rootHnsEndpointName", Json.of(w.rootHnsEndpointName()), "forwardHealthCheckVip", Json.of(w.forwardHealthCheckVip())));
        m.put("detectLocalMode", Json.of(c.detectLocalMode().apiName()));
        m.put("detectLocal", Json.obj("bridgeInterface", Json.of(c.detectLocal().bridgeInterface()),
                "interfaceNamePrefix", Json.of(c.detectLocal().interfaceNamePrefix())));
        m.put("clusterCIDR", Json.of(c.clusterCIDR()));
        m.put("nodePortAddresses", strings(c.nodePortAddresses()));
        m.put("oomScoreAdj", Json.of(c.oomScoreAdj()));
        ConntrackConfig ct = c.conntrack();
        m.put("conntrack", Json.obj("maxPerCore", Json.of(ct.maxPerCore()), "min", Json.of(ct.min()),
                "tcpEstablishedTimeout", d(ct.tcpEstablishedTimeout()), "tcpCloseWaitTimeout", d(ct.tcpCloseWaitTimeout()),
                "tcpBeLiberal", Json.of(ct.tcpBeLiberal()), "udpTimeout", d(ct.udpTimeout()), "udpStreamTimeout", d(ct.udpStreamTimeout())));
        m.put("configSyncPeriod", d(c.configSyncPeriod()));
        m.put("portRange", Json.of(c.portRange()));
        m.put("windowsRunAsService", Json.of(c.windowsRunAsService()));
        m.put("kproxy", kproxy(c.kproxy()));
        return new Json.Obj(m);
    }

    static Json logging(LoggingConfig l) {
        List<Json> vmodule = new ArrayList<>();
        for (LoggingConfig.VModuleItem v : l.vmodule()) {
            vmodule.add(Json.obj("filePattern", Json.of(v.filePattern()), "verbosity", Json.of(v.verbosity())));
        }
        return Json.obj("format", Json.of(l.format()), "flushFrequency", d(l.flushFrequency()), "verbosity", Json.of(l.verbosity()),
                "vmodule", Json.arr(vmodule), "options", Json.obj("text", routing(l.options().text()), "json", routing(l.options().json())));
    }

    private static Json routing(LoggingConfig.OutputRouting r) {
        return Json.obj("splitStream", Json.of(r.splitStream()), "infoBufferSize", Json.of(r.infoBufferSize()));
    }

    static Json kproxy(KproxyConfig k) {
        KproxyConfig.KafkaConfig kafka = k.eventLog().kafka();
        return Json.obj("journalDir", Json.of(k.journalDir()), "fsyncWindow", d(k.fsyncWindow()),
                "snapshotInterval", Json.of(k.snapshotInterval()),
                "retention", Json.obj("maxAge", d(k.retention().maxAge()), "maxBytes", Json.of(k.retention().maxBytes())),
                "eventLog", Json.obj("type", Json.of(k.eventLog().type().apiName()), "kafka", Json.obj(
                        "bootstrapServers", Json.of(kafka.bootstrapServers()), "topic", Json.of(kafka.topic()),
                        "clientId", Json.of(kafka.clientId()), "cluster", Json.of(kafka.cluster()))),
                "serviceCIDRs", strings(k.serviceCIDRs()), "adminSocket", Json.of(k.adminSocket()), "adminGroup",
                Json.of(k.adminGroup()));
    }

    /** A float32 qps: an integer when it is one (as Go's encoder prints 5, not 5.0), else its shortest decimal. */
    static Json qps(float q) {
        if (q == Math.rint(q) && Math.abs(q) < 1e15) {
            return Json.of((long) q);
        }
        return new Json.Dec(Double.parseDouble(Float.toString(q)));
    }

    static Json d(Duration d) {
        return Json.of(GoDuration.format(d));
    }

    static Json strings(List<String> items) {
        List<Json> out = new ArrayList<>(items.size());
        for (String s : items) {
            out.add(Json.of(s));
        }
        return Json.arr(out);
    }
}

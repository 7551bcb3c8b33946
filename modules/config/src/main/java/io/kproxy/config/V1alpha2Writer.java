package io.kproxy.config;

import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link ProxyConfig} to a {@code kubeproxy.config.k8s.io/v1alpha2} tree: every field, durations in
 * Go's text form. The conversion of {@link V1alpha2Binder} forwards (upstream's
 * {@code Convert_config_KubeProxyConfiguration_To_v1alpha1} read for v1alpha2): the mode's sync
 * periods and masquerade-all become the top-level ones and {@code linux.masqueradeAll}, the other
 * modes' are dropped, as is {@code portRange}; binding the result gives back an equal
 * {@link ProxyConfig} when it was read from v1alpha2. Pure and thread-safe.
 */
final class V1alpha2Writer {

    private V1alpha2Writer() {
    }

    /**
     * @throws ConfigException when {@code c} disables the health or metrics server: v1alpha2 has
     *                         no way to say so (its defaulting fills an empty list)
     */
    static Json.Obj write(ProxyConfig c) {
        List<FieldError> errs = new ArrayList<>();
        for (String field : List.of("healthzBindAddress", "metricsBindAddress")) {
            if ((field.startsWith("healthz") ? c.healthzBindAddress() : c.metricsBindAddress()).isEmpty()) {
                errs.add(new FieldError(field, "", "is empty (server disabled), which " + ConfigVersion.V1ALPHA2.apiVersion() + " cannot express"));
            }
        }
        if (!errs.isEmpty()) {
            throw new ConfigException(errs);
        }
        Map<String, Json> m = new LinkedHashMap<>();
        m.put("apiVersion", Json.of(ConfigVersion.V1ALPHA2.apiVersion()));
        m.put("kind", Json.of(Defaults.KIND));
        Map<String, Json> gates = new LinkedHashMap<>();
        new TreeMap<>(c.featureGates()).forEach((k, v) -> gates.put(k, Json.of(v)));
        m.put("featureGates", new Json.Obj(gates));
        ClientConnectionConfig cc = c.clientConnection();
        m.put("clientConnection", Json.obj("kubeconfig", Json.of(cc.kubeconfig()), "acceptContentTypes", Json.of(cc.acceptContentTypes()),
                "contentType", Json.of(cc.contentType()), "qps", TreeWriter.qps(cc.qps()), "burst", Json.of(cc.burst())));
        m.put("logging", TreeWriter.logging(c.logging()));
        m.put("hostnameOverride", Json.of(c.hostnameOverride()));
        m.put("nodeIPOverride", TreeWriter.strings(c.bindAddress().equals("0.0.0.0") ? List.of() : List.of(c.bindAddress().split(",", -1))));
        m.put("healthzBindAddresses", TreeWriter.strings(ServerAddresses.toCidrs(c.healthzBindAddress())));
        m.put("healthzBindPort", Json.of(ServerAddresses.port(c.healthzBindAddress())));
        m.put("metricsBindAddresses", TreeWriter.strings(ServerAddresses.toCidrs(c.metricsBindAddress())));
        m.put("metricsBindPort", Json.of(ServerAddresses.port(c.metricsBindAddress())));
        m.put("configHardFail", Json.of(c.bindAddressHardFail()));
        m.put("enableProfiling", Json.of(c.enableProfiling()));
        m.put("showHiddenMetricsForVersion", Json.of(c.showHiddenMetricsForVersion()));
        m.put("mode", Json.of(c.mode().apiName()));
        m.put("iptables", Json.obj("masqueradeBit", Json.of(c.iptables().masqueradeBit()),
                "localhostNodePorts", Json.of(c.iptables().localhostNodePorts())));
        IpvsConfig ipvs = c.ipvs();
        // ipvs marks with the bit ProxyConfig keeps in iptables.masqueradeBit (v1alpha1's conversion).
        m.put("ipvs", Json.obj("masqueradeBit", Json.of(c.iptables().masqueradeBit()), "scheduler", Json.of(ipvs.scheduler()),
                "excludeCIDRs", TreeWriter.strings(ipvs.excludeCIDRs()), "strictARP", Json.of(ipvs.strictARP()),
                "tcpTimeout", TreeWriter.d(ipvs.tcpTimeout()), "tcpFinTimeout", TreeWriter.d(ipvs.tcpFinTimeout()),
                "udpTimeout", TreeWriter.d(ipvs.udpTimeout())));
        m.put("nftables", Json.obj("masqueradeBit", Json.of(c.nftables().masqueradeBit())));
        WinkernelConfig w = c.winkernel();
        m.put("winkernel", Json.obj("networkName", Json.of(w.networkName()), "sourceVip", Json.of(w.sourceVip()), "enableDSR", Json.of(w.enableDSR()),
                "rootHnsEndpointName", Json.of(w.rootHnsEndpointName()), "forwardHealthCheckVip", Json.of(w.forwardHealthCheckVip())));
        m.put("detectLocalMode", Json.of(c.detectLocalMode().apiName()));
        m.put("detectLocal", Json.obj("bridgeInterface", Json.of(c.detectLocal().bridgeInterface()),
                "clusterCIDRs", TreeWriter.strings(c.clusterCIDR().isEmpty() ? List.of() : List.of(c.clusterCIDR().split(",", -1))),
                "interfaceNamePrefix", Json.of(c.detectLocal().interfaceNamePrefix())));
        m.put("nodePortAddresses", TreeWriter.strings(c.nodePortAddresses()));
        ConntrackConfig ct = c.conntrack();
        m.put("linux", Json.obj(
                "conntrack", Json.obj("maxPerCore", Json.of(ct.maxPerCore()), "min", Json.of(ct.min()),
                        "tcpEstablishedTimeout", TreeWriter.d(ct.tcpEstablishedTimeout()), "tcpCloseWaitTimeout", TreeWriter.d(ct.tcpCloseWaitTimeout()),
                        "tcpBeLiberal", Json.of(ct.tcpBeLiberal()), "udpTimeout", TreeWriter.d(ct.udpTimeout()),
                        "udpStreamTimeout", TreeWriter.d(ct.udpStreamTimeout())),
                "masqueradeAll", Json.of(c.masqueradeAll()),
                "oomScoreAdj", Json.of(c.oomScoreAdj())));
        m.put("windows", Json.obj("runAsService", Json.of(c.windowsRunAsService())));
        m.put("syncPeriod", TreeWriter.d(c.syncPeriod()));
        m.put("minSyncPeriod", TreeWriter.d(c.minSyncPeriod()));
        m.put("configSyncPeriod", TreeWriter.d(c.configSyncPeriod()));
        m.put("kproxy", TreeWriter.kproxy(c.kproxy()));
        return new Json.Obj(m);
    }
}

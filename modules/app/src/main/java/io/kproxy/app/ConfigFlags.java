package io.kproxy.app;

import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code kproxy run} flags that map to a configuration field, with upstream kube-proxy's
 * names ({@code cmd/kube-proxy/app/options.go}) plus kproxy's own section. As upstream, they are
 * ignored when {@code --config} is given ({@code --hostname-override} is not one of them: it
 * always wins). Each flag left unset is {@code null}, so that only the flags given change the
 * defaulted configuration. Populated by picocli; not thread-safe.
 */
final class ConfigFlags {

    /** One given flag: where it goes in the {@code KubeProxyConfiguration} tree, and its value. */
    record Setting(String flag, List<String> path, Json value) {
    }

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = {"Path to kubeconfig file with authorization information.",
            "Credentials: token, tokenFile (re-read every minute), client-certificate/-key (files or -data), username/password,"
                    + " exec plugins returning a token. Without --kubeconfig and --master: the in-cluster service account."})
    String kubeconfig;

    @Option(names = "--proxy-mode", paramLabel = "MODE", description = "Which proxy mode to use: 'iptables', 'ipvs' or 'nftables'.")
    String proxyMode;

    @Option(names = "--bind-address", paramLabel = "IP", description = "Overrides kproxy's idea of its node's primary IP (no socket is bound to it).")
    String bindAddress;

    @Option(names = "--healthz-bind-address", paramLabel = "IP:PORT",
            description = "Address and port of the health server (default 0.0.0.0:10256).")
    String healthzBindAddress;

    @Option(names = "--metrics-bind-address", paramLabel = "IP:PORT",
            description = "Address and port of the metrics server (default 127.0.0.1:10249); empty disables it.")
    String metricsBindAddress;

    @Option(names = "--bind-address-hard-fail", arity = "0..1", fallbackValue = "true",
            description = "Exit when a server port cannot be bound.")
    Boolean bindAddressHardFail;

    @Option(names = "--cluster-cidr", paramLabel = "CIDR[,CIDR]", description = "The pods' CIDR range(s), for detecting local traffic.")
    String clusterCIDR;

    @Option(names = "--detect-local-mode", paramLabel = "MODE",
            description = "ClusterCIDR, NodeCIDR, BridgeInterface or InterfaceNamePrefix.")
    String detectLocalMode;

    @Option(names = "--pod-bridge-interface", paramLabel = "NAME", description = "Bridge interface for --detect-local-mode=BridgeInterface.")
    String podBridgeInterface;

    @Option(names = "--pod-interface-name-prefix", paramLabel = "PREFIX",
            description = "Interface name prefix for --detect-local-mode=InterfaceNamePrefix.")
    String podInterfaceNamePrefix;

    @Option(names = "--nodeport-addresses", paramLabel = "CIDR|primary", split = ",",
            description = "CIDRs of the node IPs that accept NodePorts, or 'primary'.")
    List<String> nodePortAddresses;

    @Option(names = "--masquerade-all", arity = "0..1", fallbackValue = "true", description = "SNAT all traffic sent to Service cluster IPs.")
    Boolean masqueradeAll;

    @Option(names = "--iptables-masquerade-bit", paramLabel = "BIT", description = "The fwmark bit marking packets to SNAT (0-31).")
    Integer iptablesMasqueradeBit;

    @Option(names = "--iptables-localhost-nodeports", arity = "0..1", fallbackValue = "true",
            description = "Allow NodePorts on localhost (iptables mode, IPv4).")
    Boolean iptablesLocalhostNodePorts;

    @Option(names = "--iptables-sync-period", paramLabel = "DURATION",
            description = "Retry interval after a failed sync and half the health timeout (iptables and nftables modes).")
    String iptablesSyncPeriod;

    @Option(names = "--iptables-min-sync-period", paramLabel = "DURATION",
            description = "Minimum time between the end of a sync and the start of the next (iptables and nftables modes); 0 syncs every change at once.")
    String iptablesMinSyncPeriod;

    @Option(names = "--ipvs-sync-period", paramLabel = "DURATION", description = "As --iptables-sync-period, for ipvs mode.")
    String ipvsSyncPeriod;

    @Option(names = "--ipvs-min-sync-period", paramLabel = "DURATION", description = "As --iptables-min-sync-period, for ipvs mode.")
    String ipvsMinSyncPeriod;

    @Option(names = "--ipvs-scheduler", paramLabel = "NAME",
            description = "The IPVS scheduler in ipvs mode: rr, wrr, lc, wlc, lblc, lblcr, sh, dh, sed, nq or mh (default rr).")
    String ipvsScheduler;

    @Option(names = "--ipvs-exclude-cidrs", paramLabel = "CIDR", split = ",",
            description = "A comma-separated list of CIDRs which the ipvs proxier should not touch when cleaning up IPVS rules.")
    List<String> ipvsExcludeCIDRs;

    @Option(names = "--ipvs-strict-arp", arity = "0..1", fallbackValue = "true",
            description = "Enable strict ARP by setting arp_ignore to 1 and arp_announce to 2 (ipvs mode).")
    Boolean ipvsStrictARP;

    @Option(names = "--ipvs-tcp-timeout", paramLabel = "DURATION", description = "The timeout for idle IPVS TCP connections, 0 to leave as-is.")
    String ipvsTcpTimeout;

    @Option(names = "--ipvs-tcpfin-timeout", paramLabel = "DURATION",
            description = "The timeout for IPVS TCP connections after receiving a FIN packet, 0 to leave as-is.")
    String ipvsTcpFinTimeout;

    @Option(names = "--ipvs-udp-timeout", paramLabel = "DURATION", description = "The timeout for IPVS UDP packets, 0 to leave as-is.")
    String ipvsUdpTimeout;

    @Option(names = "--config-sync-period", paramLabel = "DURATION", description = "How often configuration from the API server is refreshed.")
    String configSyncPeriod;

    @Option(names = "--feature-gates", paramLabel = "KEY=BOOL", split = ",", description = "Feature gates, key=value pairs.")
    Map<String, Boolean> featureGates;

    @Option(names = "--kube-api-qps", paramLabel = "QPS", description = "QPS to use while talking with the API server.")
    Float kubeApiQps;

    @Option(names = "--kube-api-burst", paramLabel = "N", description = "Burst to use while talking with the API server.")
    Integer kubeApiBurst;

    @Option(names = "--kube-api-content-type", paramLabel = "TYPE", description = "Content type of requests sent to the API server.")
    String kubeApiContentType;

    @Option(names = "--oom-score-adj", paramLabel = "N", description = "The oom-score-adj value for the process (-1000..1000).")
    Integer oomScoreAdj;

    @Option(names = "--conntrack-max-per-core", paramLabel = "N",
            description = "Maximum number of NAT connections to track per CPU core (0 to leave the limit as-is and ignore conntrack-min).")
    Integer conntrackMaxPerCore;

    @Option(names = "--conntrack-min", paramLabel = "N", description = "Minimum number of conntrack entries to allocate, regardless of"
            + " conntrack-max-per-core (set conntrack-max-per-core=0 to leave the limit as-is).")
    Integer conntrackMin;

    @Option(names = "--conntrack-tcp-timeout-established", paramLabel = "DURATION",
            description = "Idle timeout for established TCP connections (0 to leave as-is).")
    String conntrackTcpTimeoutEstablished;

    @Option(names = "--conntrack-tcp-timeout-close-wait", paramLabel = "DURATION",
            description = "NAT timeout for TCP connections in the CLOSE_WAIT state.")
    String conntrackTcpTimeoutCloseWait;

    @Option(names = "--conntrack-tcp-be-liberal", arity = "0..1", fallbackValue = "true",
            description = "Enable liberal mode for tracking TCP packets by setting nf_conntrack_tcp_be_liberal to 1.")
    Boolean conntrackTcpBeLiberal;

    @Option(names = "--conntrack-udp-timeout", paramLabel = "DURATION", description = "Idle timeout for UNREPLIED UDP connections (0 to leave as-is).")
    String conntrackUdpTimeout;

    @Option(names = "--conntrack-udp-timeout-stream", paramLabel = "DURATION",
            description = "Idle timeout for ASSURED UDP connections (0 to leave as-is).")
    String conntrackUdpTimeoutStream;

    @Option(names = "--logging-format", paramLabel = "FORMAT", description = "Log format: 'text' (key=value) or 'json'.")
    String loggingFormat;

    @Option(names = {"-v", "--v"}, paramLabel = "LEVEL", description = "Log verbosity: 0-1 info, 2-4 debug, 5+ trace.")
    Integer verbosity;

    @Option(names = "--event-log", paramLabel = "TYPE",
            description = "kproxy: 'local' (the agent watches the API server) or 'kafka' (it follows the cluster's topic, docs/kafka.md).")
    String eventLog;

    @Option(names = "--kafka-bootstrap-servers", paramLabel = "HOST:PORT[,HOST:PORT]", description = "kproxy: the Kafka brokers (eventLog kafka).")
    String kafkaBootstrapServers;

    @Option(names = "--kafka-topic", paramLabel = "TOPIC", description = "kproxy: the cluster's event log topic (eventLog kafka).")
    String kafkaTopic;

    @Option(names = "--kafka-cluster", paramLabel = "NAME", description = "kproxy: the cluster identity the topic's records must carry (eventLog kafka).")
    String kafkaCluster;

    @Option(names = "--journal-dir", paramLabel = "DIR", description = "kproxy: where the local journal lives.")
    String journalDir;

    @Option(names = "--fsync-window", paramLabel = "DURATION", description = "kproxy: group-commit window of the journal.")
    String fsyncWindow;

    @Option(names = "--snapshot-interval", paramLabel = "RECORDS", description = "kproxy: records between two state snapshots.")
    Long snapshotInterval;

    @Option(names = "--admin-socket", paramLabel = "PATH",
            description = "kproxy: the Unix socket of rollback/resume/status (default /run/kproxy/admin.sock; only root may connect).")
    String adminSocket;

    /** The flags given, in a fixed order. */
    List<Setting> given() {
        List<Setting> out = new ArrayList<>();
        add(out, "--kubeconfig", kubeconfig, "clientConnection", "kubeconfig");
        add(out, "--kube-api-content-type", kubeApiContentType, "clientConnection", "contentType");
        Optional.ofNullable(kubeApiQps).ifPresent(q -> out.add(new Setting("--kube-api-qps", List.of("clientConnection", "qps"),
                q == Math.rint(q) ? Json.of((long) (float) q) : new Json.Dec(Double.parseDouble(Float.toString(q))))));
        add(out, "--kube-api-burst", kubeApiBurst, "clientConnection", "burst");
        add(out, "--proxy-mode", proxyMode, "mode");
        add(out, "--bind-address", bindAddress, "bindAddress");
        add(out, "--healthz-bind-address", healthzBindAddress, "healthzBindAddress");
        add(out, "--metrics-bind-address", metricsBindAddress, "metricsBindAddress");
        add(out, "--bind-address-hard-fail", bindAddressHardFail, "bindAddressHardFail");
        add(out, "--cluster-cidr", clusterCIDR, "clusterCIDR");
        add(out, "--detect-local-mode", detectLocalMode, "detectLocalMode");
        add(out, "--pod-bridge-interface", podBridgeInterface, "detectLocal", "bridgeInterface");
        add(out, "--pod-interface-name-prefix", podInterfaceNamePrefix, "detectLocal", "interfaceNamePrefix");
        if (nodePortAddresses != null) {
            out.add(new Setting("--nodeport-addresses", List.of("nodePortAddresses"), strings(nodePortAddresses)));
        }
        // masqueradeAll lives in the section of each mode (v1alpha1); the flag sets it for all.
        add(out, "--masquerade-all", masqueradeAll, "iptables", "masqueradeAll");
        add(out, "--masquerade-all", masqueradeAll, "nftables", "masqueradeAll");
        add(out, "--iptables-masquerade-bit", iptablesMasqueradeBit, "iptables", "masqueradeBit");
        add(out, "--iptables-localhost-nodeports", iptablesLocalhostNodePorts, "iptables", "localhostNodePorts");
        // Upstream's internal configuration has one syncPeriod; the iptables flags feed every mode but ipvs.
        add(out, "--iptables-sync-period", iptablesSyncPeriod, "iptables", "syncPeriod");
        add(out, "--iptables-sync-period", iptablesSyncPeriod, "nftables", "syncPeriod");
        add(out, "--iptables-min-sync-period", iptablesMinSyncPeriod, "iptables", "minSyncPeriod");
        add(out, "--iptables-min-sync-period", iptablesMinSyncPeriod, "nftables", "minSyncPeriod");
        add(out, "--ipvs-sync-period", ipvsSyncPeriod, "ipvs", "syncPeriod");
        add(out, "--ipvs-min-sync-period", ipvsMinSyncPeriod, "ipvs", "minSyncPeriod");
        add(out, "--ipvs-scheduler", ipvsScheduler, "ipvs", "scheduler");
        if (ipvsExcludeCIDRs != null) {
            out.add(new Setting("--ipvs-exclude-cidrs", List.of("ipvs", "excludeCIDRs"), strings(ipvsExcludeCIDRs)));
        }
        add(out, "--ipvs-strict-arp", ipvsStrictARP, "ipvs", "strictARP");
        add(out, "--ipvs-tcp-timeout", ipvsTcpTimeout, "ipvs", "tcpTimeout");
        add(out, "--ipvs-tcpfin-timeout", ipvsTcpFinTimeout, "ipvs", "tcpFinTimeout");
        add(out, "--ipvs-udp-timeout", ipvsUdpTimeout, "ipvs", "udpTimeout");
        add(out, "--config-sync-period", configSyncPeriod, "configSyncPeriod");
        if (featureGates != null) {
            Json.Obj gates = Json.Obj.EMPTY;
            for (Map.Entry<String, Boolean> e : featureGates.entrySet()) {
                gates = gates.with(e.getKey(), Json.of(e.getValue()));
            }
            out.add(new Setting("--feature-gates", List.of("featureGates"), gates));
        }
        add(out, "--oom-score-adj", oomScoreAdj, "oomScoreAdj");
        add(out, "--conntrack-max-per-core", conntrackMaxPerCore, "conntrack", "maxPerCore");
        add(out, "--conntrack-min", conntrackMin, "conntrack", "min");
        add(out, "--conntrack-tcp-timeout-established", conntrackTcpTimeoutEstablished, "conntrack", "tcpEstablishedTimeout");
        add(out, "--conntrack-tcp-timeout-close-wait", conntrackTcpTimeoutCloseWait, "conntrack", "tcpCloseWaitTimeout");
        add(out, "--conntrack-tcp-be-liberal", conntrackTcpBeLiberal, "conntrack", "tcpBeLiberal");
        add(out, "--conntrack-udp-timeout", conntrackUdpTimeout, "conntrack", "udpTimeout");
        add(out, "--conntrack-udp-timeout-stream", conntrackUdpTimeoutStream, "conntrack", "udpStreamTimeout");
        add(out, "--logging-format", loggingFormat, "logging", "format");
        add(out, "--v", verbosity, "logging", "verbosity");
        add(out, "--journal-dir", journalDir, "kproxy", "journalDir");
        add(out, "--event-log", eventLog, "kproxy", "eventLog", "type");
        add(out, "--kafka-bootstrap-servers", kafkaBootstrapServers, "kproxy", "eventLog", "kafka", "bootstrapServers");
        add(out, "--kafka-topic", kafkaTopic, "kproxy", "eventLog", "kafka", "topic");
        add(out, "--kafka-cluster", kafkaCluster, "kproxy", "eventLog", "kafka", "cluster");
        add(out, "--fsync-window", fsyncWindow, "kproxy", "fsyncWindow");
        add(out, "--snapshot-interval", snapshotInterval, "kproxy", "snapshotInterval");
        add(out, "--admin-socket", adminSocket, "kproxy", "adminSocket");
        return out;
    }

    /** A comma-separated list flag's items, stripped, blank ones dropped (pflag's StringSlice). */
    private static Json strings(List<String> items) {
        return Json.arr(items.stream().map(String::strip).filter(s -> !s.isEmpty()).map(s -> (Json) Json.of(s)).toList());
    }

    private static void add(List<Setting> out, String flag, Object value, String... path) {
        if (value == null) {
            return;
        }
        Json json = switch (value) {
            case String s -> Json.of(s);
            case Boolean b -> Json.of(b);
            case Integer i -> Json.of((long) i);
            case Long l -> Json.of(l);
            default -> throw new IllegalArgumentException("unsupported flag value " + value.getClass());
        };
        out.add(new Setting(flag, List.of(path), json));
    }
}

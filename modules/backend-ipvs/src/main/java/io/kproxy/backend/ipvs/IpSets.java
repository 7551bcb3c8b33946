package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.SetSpec;
import io.kproxy.model.IpFamily;
import java.util.Arrays;
import java.util.List;

/**
 * Upstream's ipsets, names, types and comments byte for byte ({@code pkg/proxy/ipvs/ipset.go},
 * {@code ipsetInfo} in {@code pkg/proxy/ipvs/proxier.go}). IPv6 sets are named {@code KUBE-6-...}
 * and cut to ipset's 31 characters, as upstream's {@code NewIPSet} does. Stateless.
 */
enum IpSets {
    LOOP_BACK("KUBE-LOOP-BACK", "hash:ip,port,ip", "Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose"),
    CLUSTER_IP("KUBE-CLUSTER-IP", "hash:ip,port", "Kubernetes service cluster ip + port for masquerade purpose"),
    EXTERNAL_IP("KUBE-EXTERNAL-IP", "hash:ip,port", "Kubernetes service external ip + port for masquerade and filter purpose"),
    EXTERNAL_IP_LOCAL("KUBE-EXTERNAL-IP-LOCAL", "hash:ip,port", "Kubernetes service external ip + port with externalTrafficPolicy=local"),
    LOAD_BALANCER("KUBE-LOAD-BALANCER", "hash:ip,port", "Kubernetes service lb portal"),
    LOAD_BALANCER_FW("KUBE-LOAD-BALANCER-FW", "hash:ip,port", "Kubernetes service load balancer ip + port for load balancer with sourceRange"),
    LOAD_BALANCER_LOCAL("KUBE-LOAD-BALANCER-LOCAL", "hash:ip,port",
            "Kubernetes service load balancer ip + port with externalTrafficPolicy=local"),
    LOAD_BALANCER_SOURCE_IP("KUBE-LOAD-BALANCER-SOURCE-IP", "hash:ip,port,ip",
            "Kubernetes service load balancer ip + port + source IP for packet filter purpose"),
    LOAD_BALANCER_SOURCE_CIDR("KUBE-LOAD-BALANCER-SOURCE-CIDR", "hash:ip,port,net",
            "Kubernetes service load balancer ip + port + source cidr for packet filter purpose"),
    NODE_PORT_TCP("KUBE-NODE-PORT-TCP", "bitmap:port", "Kubernetes nodeport TCP port for masquerade purpose"),
    NODE_PORT_LOCAL_TCP("KUBE-NODE-PORT-LOCAL-TCP", "bitmap:port", "Kubernetes nodeport TCP port with externalTrafficPolicy=local"),
    NODE_PORT_UDP("KUBE-NODE-PORT-UDP", "bitmap:port", "Kubernetes nodeport UDP port for masquerade purpose"),
    NODE_PORT_LOCAL_UDP("KUBE-NODE-PORT-LOCAL-UDP", "bitmap:port", "Kubernetes nodeport UDP port with externalTrafficPolicy=local"),
    NODE_PORT_SCTP("KUBE-NODE-PORT-SCTP-HASH", "hash:ip,port", "Kubernetes nodeport SCTP port for masquerade purpose with type 'hash ip:port'"),
    NODE_PORT_LOCAL_SCTP("KUBE-NODE-PORT-LOCAL-SCTP-HASH", "hash:ip,port",
            "Kubernetes nodeport SCTP port with externalTrafficPolicy=local with type 'hash ip:port'"),
    HEALTH_CHECK_NODE_PORT("KUBE-HEALTH-CHECK-NODE-PORT", "bitmap:port", "Kubernetes health check node port"),
    IPVS_IPS("KUBE-IPVS-IPS", "hash:ip", "Addresses on the ipvs interface");

    private final String baseName;
    private final String type;
    private final String comment;

    IpSets(String baseName, String type, String comment) {
        this.baseName = baseName;
        this.type = type;
        this.comment = comment;
    }

    /** The set's name in {@code family}: {@code KUBE-6-} for IPv6, at most 31 characters. */
    String name(IpFamily family) {
        if (family == IpFamily.IPV4) {
            return baseName;
        }
        String n = baseName.replaceFirst("^KUBE-", "KUBE-6-");
        return n.length() > 31 ? n.substring(0, 31) : n;
    }

    /** Upstream's {@code getComment}: the comment in double quotes, as the rules carry it. */
    String quotedComment() {
        return "\"" + comment + "\"";
    }

    SetSpec spec(IpFamily family) {
        return new SetSpec(name(family), type, family, comment);
    }

    /** Every set of a family, in upstream's {@code ipsetInfo} order. */
    static List<SetSpec> specs(IpFamily family) {
        return Arrays.stream(values()).map(s -> s.spec(family)).toList();
    }
}

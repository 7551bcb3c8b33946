package io.kproxy.backend.iptables;

import io.kproxy.backend.ChainNames;
import io.kproxy.backend.PolicyChains;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.state.Endpoint;
import io.kproxy.state.ServicePortState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Renders one service port exactly as upstream's {@code syncProxyRules} loop body does
 * ({@code pkg/proxy/iptables/proxier.go}, the 1.30+ text with nfacct counters, checked against
 * the expected dumps of {@code proxier_test.go}): the capture rules in {@code KUBE-SERVICES} /
 * {@code KUBE-NODEPORTS}, the REJECT/DROP filter rules, and the {@code KUBE-EXT-}, {@code KUBE-FW-},
 * {@code KUBE-SVC-}, {@code KUBE-SVL-} and {@code KUBE-SEP-} chains. Pure and thread-safe.
 */
final class FragmentRenderer {

    private final Fam f;
    private final boolean masqueradeAll;
    private final Optional<LocalMatch> local;
    private final Optional<IpAddress> nodeIP;
    private final boolean localhostNodePorts;
    private final Features features;
    private final boolean largeCluster;

    FragmentRenderer(Fam f, boolean masqueradeAll, Optional<LocalMatch> local, Optional<IpAddress> nodeIP, boolean localhostNodePorts,
            Features features, boolean largeCluster) {
        this.f = f;
        this.masqueradeAll = masqueradeAll;
        this.local = local;
        this.nodeIP = nodeIP;
        this.localhostNodePorts = localhostNodePorts;
        this.features = features;
        this.largeCluster = largeCluster;
    }

    boolean largeCluster() {
        return largeCluster;
    }

    PortFragment render(ServicePortState s) {
        String proto = s.name().protocol().lowerName();
        String name = s.name().toString();
        String hash = ChainNames.iptablesServicePortHash(s.name());
        String svc = "KUBE-SVC-" + hash;
        String svl = "KUBE-SVL-" + hash;
        String ext = "KUBE-EXT-" + hash;
        String fw = "KUBE-FW-" + hash;
        List<Endpoint> clusterEps = s.clusterEndpoints();
        List<Endpoint> localEps = s.localEndpoints();
        boolean hasEndpoints = s.hasEndpoints();

        PolicyChains policy = PolicyChains.of(s);
        String internalChain = policy.internalChain(svc, svl);
        String externalPolicyChain = policy.externalPolicyChain(svc, svl);
        boolean usesFw = hasEndpoints && !s.loadBalancerIPs().isEmpty() && !s.loadBalancerSourceRanges().isEmpty();
        String lbChain = usesFw ? fw : ext;

        String internalTarget = "";
        String internalComment = "";
        String externalTarget = "";
        String externalComment = "";
        if (!hasEndpoints) {
            internalTarget = "REJECT";
            internalComment = q(name + " has no endpoints");
            externalTarget = "REJECT";
            externalComment = internalComment;
        } else {
            if (!policy.hasInternal()) {
                internalTarget = "DROP";
                internalComment = q(name + " has no local endpoints");
            }
            if (!policy.hasExternal()) {
                externalTarget = "DROP";
                externalComment = q(name + " has no local endpoints");
            }
        }

        String match = "-m " + proto + " -p " + proto;
        String cip = s.clusterIP().toString();
        String port = Integer.toString(s.port().value());
        List<String> filter = new ArrayList<>();
        List<String> natTop = new ArrayList<>();

        if (policy.hasInternal()) {
            natTop.add("-A KUBE-SERVICES -m comment --comment " + q(name + " cluster IP") + " " + match + " -d " + cip + " --dport " + port
                    + " -j " + internalChain);
        } else {
            filter.add("-A KUBE-SERVICES -m comment --comment " + internalComment + " " + match + " -d " + cip + " --dport " + port + " -j "
                    + internalTarget);
        }
        for (IpAddress ip : s.externalIPs()) {
            if (hasEndpoints) {
                natTop.add("-A KUBE-SERVICES -m comment --comment " + q(name + " external IP") + " " + match + " -d " + ip + " --dport "
                        + port + " -j " + ext);
            }
            if (!policy.hasExternal()) {
                filter.add("-A KUBE-EXTERNAL-SERVICES -m comment --comment " + externalComment + " " + match + " -d " + ip + " --dport "
                        + port + " -j " + externalTarget);
            }
        }
        for (IpAddress ip : s.loadBalancerIPs()) {
            if (hasEndpoints) {
                natTop.add("-A KUBE-SERVICES -m comment --comment " + q(name + " loadbalancer IP") + " " + match + " -d " + ip + " --dport "
                        + port + " -j " + lbChain);
            }
            if (usesFw) {
                filter.add("-A KUBE-PROXY-FIREWALL -m comment --comment " + q(name + " traffic not accepted by " + fw) + " " + match + " -d "
                        + ip + " --dport " + port + " -j DROP");
            }
        }
        if (!policy.hasExternal()) {
            for (IpAddress ip : s.loadBalancerIPs()) {
                filter.add("-A KUBE-EXTERNAL-SERVICES -m comment --comment " + externalComment + " " + match + " -d " + ip + " --dport "
                        + port + " -j " + externalTarget);
            }
        }
        if (s.nodePort() != 0) {
            String np = Integer.toString(s.nodePort());
            if (hasEndpoints) {
                // For better or for worse, NodePorts are not subject to loadBalancerSourceRanges.
                if (localhostNodePorts && !f.v6() && features.nfacct()) {
                    natTop.add("-A KUBE-NODEPORTS -m comment --comment " + Comments.word(name) + " " + match + " -d 127.0.0.0/8 --dport " + np
                            + " -m nfacct --nfacct-name " + Words.NFACCT_LOCALHOST + " -j " + ext);
                }
                natTop.add("-A KUBE-NODEPORTS -m comment --comment " + Comments.word(name) + " " + match + " --dport " + np + " -j " + ext);
            }
            if (!policy.hasExternal()) {
                filter.add("-A KUBE-EXTERNAL-SERVICES -m comment --comment " + externalComment + " -m addrtype --dst-type LOCAL " + match
                        + " --dport " + np + " -j " + externalTarget);
            }
        }
        if (s.healthCheckNodePort() != 0) {
            // Accepted whether or not the node has local endpoints: the LB must be able to ask.
            filter.add("-A KUBE-NODEPORTS -m comment --comment " + q(name + " health check node port") + " -m tcp -p tcp --dport "
                    + s.healthCheckNodePort() + " -j ACCEPT");
        }

        List<String> chains = new ArrayList<>();
        List<String> rules = new ArrayList<>();
        if (policy.hasInternal()) {
            String args = "-m comment --comment " + q(name + " cluster IP") + " " + match + " -d " + cip + " --dport " + port;
            if (masqueradeAll) {
                rules.add("-A " + internalChain + " " + args + " -j KUBE-MARK-MASQ");
            } else if (local.isPresent()) {
                // Masquerade off-cluster traffic to the service VIP: it may bounce off-node.
                rules.add("-A " + internalChain + " " + args + " " + local.get().ifNotLocal() + " -j KUBE-MARK-MASQ");
            }
        }
        if (policy.usesExternalChain()) {
            chains.add(ext);
            if (!s.externalPolicyLocal()) {
                rules.add("-A " + ext + " -m comment --comment " + q("masquerade traffic for " + name + " external destinations")
                        + " -j KUBE-MARK-MASQ");
            } else {
                // Pod traffic to an external destination acts as if it went out to the LB and came back.
                local.ifPresent(l -> rules.add("-A " + ext + " -m comment --comment " + q("pod traffic for " + name + " external destinations")
                        + " " + l.ifLocal() + " -j " + svc));
                rules.add("-A " + ext + " -m comment --comment " + q("masquerade LOCAL traffic for " + name + " external destinations")
                        + " -m addrtype --src-type LOCAL -j KUBE-MARK-MASQ");
                rules.add("-A " + ext + " -m comment --comment " + q("route LOCAL traffic for " + name + " external destinations")
                        + " -m addrtype --src-type LOCAL -j " + svc);
            }
            if (policy.hasExternal()) {
                rules.add("-A " + ext + " -j " + externalPolicyChain);
            }
        }
        if (usesFw) {
            chains.add(fw);
            String args = "-A " + fw + " -m comment --comment " + q(name + " loadbalancer IP");
            boolean allowFromNode = false;
            for (Cidr c : s.loadBalancerSourceRanges()) {
                rules.add(args + " -s " + c + " -j " + ext);
                allowFromNode |= nodeIP.map(c::contains).orElse(false);
            }
            // VIP-like load balancers loop the node's own requests back with the VIP as source.
            if (allowFromNode) {
                for (IpAddress ip : s.loadBalancerIPs()) {
                    rules.add(args + " -s " + ip + " -j " + ext);
                }
            }
            rules.add("-A " + fw + " -m comment --comment " + q("other traffic to " + name + " will be dropped by KUBE-PROXY-FIREWALL"));
        }
        if (policy.usesClusterChain()) {
            chains.add(svc);
            endpointRules(rules, s, svc, clusterEps);
        }
        if (policy.usesLocalChain()) {
            chains.add(svl);
            endpointRules(rules, s, svl, localEps);
        }
        for (Endpoint ep : s.reachableEndpoints()) {
            String sep = ChainNames.iptablesEndpointChain(s.name(), ep.hostPort());
            chains.add(sep);
            String args = "-A " + sep + comment(Comments.word(name));
            // Hairpin: an endpoint reaching its own service is masqueraded so the reply returns through us.
            rules.add(args + " -s " + ep.ip() + " -j KUBE-MARK-MASQ");
            String affinity = s.affinityTimeoutSeconds() > 0 ? " -m recent --name " + sep + " --set" : "";
            rules.add(args + affinity + " " + match + " -j DNAT --to-destination " + ep.hostPort());
        }
        return new PortFragment(s.name(), filter, natTop, chains, rules, s.endpoints().size());
    }

    /** Upstream's {@code writeServiceToEndpointRules}: affinity checks, then one probability rule per endpoint. */
    private void endpointRules(List<String> rules, ServicePortState s, String chain, List<Endpoint> eps) {
        String name = s.name().toString();
        if (s.affinityTimeoutSeconds() > 0) {
            for (Endpoint ep : eps) {
                String sep = ChainNames.iptablesEndpointChain(s.name(), ep.hostPort());
                rules.add("-A " + chain + comment(q(name + " -> " + ep.hostPort())) + " -m recent --name " + sep + " --rcheck --seconds "
                        + s.affinityTimeoutSeconds() + " --reap -j " + sep);
            }
        }
        int n = eps.size();
        for (int i = 0; i < n; i++) {
            Endpoint ep = eps.get(i);
            String sep = ChainNames.iptablesEndpointChain(s.name(), ep.hostPort());
            String prob = i < n - 1 ? " -m statistic --mode random --probability " + Words.probability(n - i) : "";
            rules.add("-A " + chain + comment(q(name + " -> " + ep.hostPort())) + prob + " -j " + sep);
        }
    }

    /** Upstream's {@code appendServiceCommentLocked}: no per-endpoint comments in large-cluster mode. */
    private String comment(String text) {
        return largeCluster ? "" : " -m comment --comment " + text;
    }

    /** A comment with spaces, quoted as upstream writes it with {@code fmt.Sprintf(`"%s ..."`)}; made safe by {@link Comments}. */
    private static String q(String text) {
        return Comments.quoted(text);
    }
}

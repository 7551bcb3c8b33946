package io.kproxy.backend.nftables;

import io.kproxy.backend.ChainNames;
import io.kproxy.backend.PolicyChains;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.state.Endpoint;
import io.kproxy.state.ServicePortState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Renders one service port the way upstream's {@code syncProxyRules} loop body does
 * ({@code pkg/proxy/nftables/proxier.go}, layout of the post-1.33 fixture in
 * {@code proxier_test.go} at commit 030880a5): chains {@code service-}, {@code local-},
 * {@code external-}, {@code firewall-}, {@code endpoint-}, affinity sets, and the elements of the
 * shared dispatch maps. Deliberate differences, packet semantics unchanged: services without
 * session affinity DNAT straight from their slot of a shared data map ({@link NftDispatch}, at
 * the position {@link Slots} gives), with no per-endpoint chains (upstream's newest layout does
 * the same with an anonymous map per service); with session affinity the dispatch goes through a
 * named verdict map ({@link NftServiceMap}); hairpin masquerade matches the shared {@code hairpin-connections}
 * set in {@code masquerading} (as upstream's newest layout) instead of a rule per endpoint chain.
 * Pure and thread-safe.
 */
final class FragmentRenderer {

    static final String MARK_MASQ = "mark-for-masquerade";
    static final String REJECT_CHAIN = "reject-chain";

    private final NftFamily f;
    private final boolean masqueradeAll;
    private final Optional<LocalTraffic> local;
    private final List<IpAddress> nodeIPs;
    private final Slots slots;

    /** @param slots the positions of every dispatch {@link #dispatchChains} names for the ports to render */
    FragmentRenderer(NftFamily f, boolean masqueradeAll, Optional<LocalTraffic> local, List<IpAddress> nodeIPs, Slots slots) {
        this.f = f;
        this.masqueradeAll = masqueradeAll;
        this.local = local;
        this.nodeIPs = List.copyOf(nodeIPs);
        this.slots = slots;
    }

    /**
     * The policy chains of {@code s} that dispatch through a shared endpoint map (none with
     * session affinity): the ones {@link #render} writes a {@link NftDispatch} for.
     */
    static List<String> dispatchChains(ServicePortState s) {
        return s.affinityTimeoutSeconds() > 0 ? List.of() : dispatchChains(s, ChainNames.nftServicePortBase(s.name()));
    }

    /** {@link #dispatchChains(ServicePortState)} with the port's chain name base already known. */
    static List<String> dispatchChains(ServicePortState s, String base) {
        if (s.affinityTimeoutSeconds() > 0) {
            return List.of();
        }
        PolicyChains policy = PolicyChains.of(s);
        if (policy.usesClusterChain() && policy.usesLocalChain()) {
            return List.of("service-" + base, "local-" + base);
        }
        if (policy.usesClusterChain()) {
            return List.of("service-" + base);
        }
        return policy.usesLocalChain() ? List.of("local-" + base) : List.of();
    }

    PortFragment render(ServicePortState s) {
        return render(s, ChainNames.nftServicePortBase(s.name()));
    }

    /** {@link #render(ServicePortState)} with the port's chain name base ({@code ChainNames.nftServicePortBase}) already known. */
    PortFragment render(ServicePortState s, String base) {
        String proto = s.name().protocol().lowerName();
        String svcName = s.name().toString();
        String clusterChain = "service-" + base;
        String localChain = "local-" + base;
        String externalChain = "external-" + base;
        String firewallChain = "firewall-" + base;
        boolean affinity = s.affinityTimeoutSeconds() > 0;
        boolean hasEndpoints = s.hasEndpoints();
        List<Endpoint> clusterEps = s.clusterEndpoints();
        List<Endpoint> localEps = s.localEndpoints();

        PolicyChains policy = PolicyChains.of(s);
        String internalChain = policy.internalChain(clusterChain, localChain);
        String externalPolicyChain = policy.externalPolicyChain(clusterChain, localChain);
        String internalVerdict = hasEndpoints ? "drop" : "goto " + REJECT_CHAIN;
        String externalVerdict = internalVerdict;

        List<NftElement> elements = new ArrayList<>();
        String portText = proto + " . " + s.port();
        String cip = s.clusterIP().toString();
        elements.add(new NftElement("cluster-ips", cip, "", ""));
        if (policy.hasInternal()) {
            elements.add(new NftElement("service-ips", cip + " . " + portText, "goto " + internalChain, ""));
        } else {
            elements.add(new NftElement("no-endpoint-services", cip + " . " + portText, internalVerdict, svcName));
        }
        for (IpAddress ext : s.externalIPs()) {
            if (hasEndpoints) {
                elements.add(new NftElement("service-ips", ext + " . " + portText, "goto " + externalChain, ""));
            }
            if (!policy.hasExternal()) {
                elements.add(new NftElement("no-endpoint-services", ext + " . " + portText, externalVerdict, svcName));
            }
        }
        boolean usesFirewall = !s.loadBalancerIPs().isEmpty() && !s.loadBalancerSourceRanges().isEmpty();
        for (IpAddress lb : s.loadBalancerIPs()) {
            if (hasEndpoints) {
                elements.add(new NftElement("service-ips", lb + " . " + portText, "goto " + externalChain, ""));
            }
            if (usesFirewall) {
                elements.add(new NftElement("firewall-ips", lb + " . " + portText, "goto " + firewallChain, ""));
            }
            if (!policy.hasExternal()) {
                elements.add(new NftElement("no-endpoint-services", lb + " . " + portText, externalVerdict, svcName));
            }
        }
        if (s.nodePort() != 0) {
            String np = proto + " . " + s.nodePort();
            if (hasEndpoints) {
                // NodePorts are not subject to loadBalancerSourceRanges (upstream: "for better or for worse").
                elements.add(new NftElement("service-nodeports", np, "goto " + externalChain, ""));
            }
            if (!policy.hasExternal()) {
                elements.add(new NftElement("no-endpoint-nodeports", np, externalVerdict, svcName));
            }
        }

        Map<String, Integer> affinitySets = new LinkedHashMap<>();
        List<Endpoint> reachable = s.reachableEndpoints();
        if (affinity) {
            for (Endpoint ep : reachable) {
                affinitySets.put(affinitySet(s, ep), s.affinityTimeoutSeconds());
            }
        }
        String revision = affinity ? "affinity-timeout=" + s.affinityTimeoutSeconds() : "";

        List<NftChain> chains = new ArrayList<>();
        List<NftServiceMap> maps = new ArrayList<>();
        List<NftDispatch> dispatches = new ArrayList<>();
        String masqRule = null;
        if (policy.hasInternal()) {
            if (masqueradeAll) {
                masqRule = f.ipX() + " daddr " + cip + " jump " + MARK_MASQ;
            } else if (local.isPresent()) {
                // Masquerade off-cluster traffic to the cluster IP: it may bounce off-node.
                masqRule = f.ipX() + " daddr " + cip + " " + local.get().ifNotLocal() + " jump " + MARK_MASQ;
            }
        }
        if (policy.usesClusterChain()) {
            chains.add(policyChain(s, clusterChain, clusterEps, clusterChain.equals(internalChain) ? masqRule : null, revision, maps, dispatches));
        }
        if (policy.usesLocalChain()) {
            chains.add(policyChain(s, localChain, localEps, localChain.equals(internalChain) ? masqRule : null, revision, maps, dispatches));
        }
        if (policy.usesExternalChain()) {
            chains.add(new NftChain(externalChain, externalRules(s, clusterChain, externalPolicyChain, policy.hasExternal()), ""));
        }
        if (usesFirewall) {
            chains.add(new NftChain(firewallChain, List.of(firewallRule(s)), ""));
        }
        for (Endpoint ep : reachable) {
            if (affinity) {
                chains.add(endpointChain(s, ep, proto, revision));
            }
            // Hairpin: an endpoint that reaches its own service and is picked is masqueraded so
            // that the reply comes back through us (upstream's newest hairpin-connections set).
            String addr = ep.ip().toString();
            elements.add(new NftElement(BaseRuleset.HAIRPIN_SET, addr + " . " + addr + " . " + proto + " . " + ep.port(), "", ""));
        }
        return new PortFragment(s.name(), affinitySets, maps, chains, dispatches, elements);
    }

    private NftChain policyChain(ServicePortState s, String chain, List<Endpoint> eps, String masqRule, String revision,
            List<NftServiceMap> maps, List<NftDispatch> dispatches) {
        List<String> rules = new ArrayList<>();
        if (masqRule != null) {
            rules.add(masqRule);
        }
        if (s.affinityTimeoutSeconds() > 0) {
            for (Endpoint ep : eps) {
                rules.add(f.ipX() + " saddr @" + affinitySet(s, ep) + " goto " + endpointChainName(s, ep));
            }
            rules.add("numgen random mod " + eps.size() + " vmap @" + chain);
            maps.add(NftServiceMap.verdicts(chain, eps.stream().map(ep -> endpointChainName(s, ep)).toList()));
        } else {
            String proto = s.name().protocol().lowerName();
            NftDispatch d = new NftDispatch(s.name(), chain, proto, slots.position(proto, chain),
                    eps.stream().map(ep -> ep.ip() + " . " + ep.port()).toList());
            rules.add(d.rule(f));
            dispatches.add(d);
        }
        return new NftChain(chain, rules, revision);
    }

    private List<String> externalRules(ServicePortState s, String clusterChain, String externalPolicyChain, boolean hasExternal) {
        List<String> rules = new ArrayList<>();
        if (!s.externalPolicyLocal()) {
            // Endpoints may be on another node: masquerade so that replies come back through us.
            rules.add("jump " + MARK_MASQ);
        } else {
            // Pod traffic to an external destination acts as if it went out to the load balancer
            // and came back in: no traffic policy, no masquerade.
            local.ifPresent(l -> rules.add(l.ifLocal() + " goto " + clusterChain + " comment \"short-circuit pod traffic\""));
            // The node's own traffic: its source would be the external IP itself, so masquerade.
            rules.add("fib saddr type local jump " + MARK_MASQ + " comment \"masquerade local traffic\"");
            rules.add("fib saddr type local goto " + clusterChain + " comment \"short-circuit local traffic\"");
        }
        if (hasExternal) {
            rules.add("goto " + externalPolicyChain);
        }
        return rules;
    }

    private String firewallRule(ServicePortState s) {
        List<String> sources = new ArrayList<>();
        boolean allowFromNode = false;
        for (Cidr c : s.loadBalancerSourceRanges()) {
            sources.add(c.toString());
            allowFromNode |= !nodeIPs.isEmpty() && c.contains(nodeIPs.getFirst());
        }
        // VIP-like load balancers loop the node's own requests back with the VIP as source.
        if (allowFromNode) {
            s.loadBalancerIPs().forEach(ip -> sources.add(ip.toString()));
        }
        return f.ipX() + " saddr != { " + String.join(", ", sources) + " } drop";
    }

    /** Session affinity only: record the client, then DNAT (upstream's endpoint chain minus the hairpin rule). */
    private NftChain endpointChain(ServicePortState s, Endpoint ep, String proto, String revision) {
        List<String> rules = new ArrayList<>();
        rules.add("update @" + affinitySet(s, ep) + " { " + f.ipX() + " saddr }");
        rules.add("meta l4proto " + proto + " dnat to " + ep.hostPort());
        return new NftChain(endpointChainName(s, ep), rules, revision);
    }

    static String endpointChainName(ServicePortState s, Endpoint ep) {
        return "endpoint-" + ChainNames.nftEndpointBase(s.name(), ep.ip(), ep.port());
    }

    static String affinitySet(ServicePortState s, Endpoint ep) {
        return "affinity-" + ChainNames.nftEndpointBase(s.name(), ep.ip(), ep.port());
    }
}

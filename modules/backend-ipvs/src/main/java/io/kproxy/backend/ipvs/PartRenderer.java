package io.kproxy.backend.ipvs;

import io.kproxy.backend.Skipped;
import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.state.Endpoint;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.ServicePortState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One service port of one family to its {@link PortPart}, as upstream's {@code syncProxyRules}
 * loop body does it ({@code pkg/proxy/ipvs/proxier.go}): the cluster IP's virtual server (bound to
 * {@code kube-ipvs0}, real servers from the internal policy), one per external IP and load-balancer
 * IP (bound unless a node address, real servers from the external policy), one per node address
 * and NodePort, the ipset members that drive the helper iptables rules, and the loop-back members
 * of local endpoints. Pure and thread-safe.
 *
 * <p>Bad input is skipped whole and reported in the part, never half-rendered: a cluster IP that
 * is one of the node's addresses (binding it to the dummy device would take it from the node),
 * more real servers than {@link #MAX_REAL_SERVERS} on one virtual server, and virtual servers
 * with a scheduler the kernel lacks ({@link HostFacts#missingSchedulers}).
 *
 * <p>The node's addresses are its local addresses when the node state recorded them
 * ({@link HostFacts#localAddresses}, upstream's {@code nodeAddressSet}), else the Node object's.
 */
final class PartRenderer {

    /**
     * kproxy's bound on real servers per virtual server (issue 21; docs/backends/ipvs.md, "Bad
     * input"): a larger endpoint set is refused whole rather than programmed in part.
     */
    static final int MAX_REAL_SERVERS = 65_535;

    private final IpFamily family;
    private final IpvsSettings settings;
    private final List<IpAddress> nodeAddresses;
    private final List<IpAddress> nodePortAddresses;
    private final Optional<IpAddress> nodeIP;
    private final boolean schedulerMissing;

    PartRenderer(FamilyState fs, IpvsSettings settings, HostFacts facts) {
        this.family = fs.family();
        this.settings = settings;
        this.nodeAddresses = facts.local(family).orElse(fs.nodeIPs());
        this.nodeIP = fs.nodeIPs().stream().findFirst();
        this.nodePortAddresses = nodePortAddresses(nodeAddresses, fs.nodePortAddresses());
        this.schedulerMissing = facts.missingSchedulers().contains(settings.scheduler());
    }

    /**
     * The node addresses NodePort virtual servers are created on: the node's addresses of the
     * family matching {@code nodePortAddresses}, loopback excluded (upstream's
     * {@code syncProxyRules} with {@code nodeAddressSet} and {@code NodePortAddresses.GetNodeIPs},
     * pkg/proxy/ipvs/proxier.go and pkg/proxy/util/nodeport_addresses.go).
     */
    static List<IpAddress> nodePortAddresses(List<IpAddress> nodeAddresses, NodePortAddresses wanted) {
        return nodeAddresses.stream().filter(ip -> !ip.isLoopback()).filter(ip -> switch (wanted) {
            case NodePortAddresses.MatchAll all -> true;
            case NodePortAddresses.Cidrs c -> c.cidrs().stream().anyMatch(x -> x.contains(ip));
        }).toList();
    }

    PortPart render(ServicePortState s) {
        Optional<Skipped> bad = badInput(s);
        if (bad.isPresent()) {
            return PortPart.of(s.name(), List.of(), List.of(), List.of(), bad, family);
        }
        Protocol proto = s.name().protocol();
        String p = proto.lowerName();
        int port = s.port().value();
        List<VsEntry> services = new ArrayList<>();
        List<SetEntry> entries = new ArrayList<>();
        List<String> outFilter = new ArrayList<>();
        for (Endpoint ep : s.endpoints()) {
            if (ep.local()) {
                entries.add(new SetEntry(IpSets.LOOP_BACK, ep.ip() + "," + p + ":" + ep.port().value() + "," + ep.ip()));
            }
        }
        entries.add(new SetEntry(IpSets.CLUSTER_IP, s.clusterIP() + "," + p + ":" + port));
        services.add(new VsEntry(vs(s, s.clusterIP(), port), reals(s.internalPolicyLocal(), s), true));
        for (IpAddress ext : s.externalIPs()) {
            entries.add(new SetEntry(s.externalPolicyLocal() ? IpSets.EXTERNAL_IP_LOCAL : IpSets.EXTERNAL_IP, ext + "," + p + ":" + port));
            services.add(new VsEntry(vs(s, ext, port), reals(s.externalPolicyLocal(), s), !nodeAddresses.contains(ext)));
        }
        for (IpAddress lb : s.loadBalancerIPs()) {
            String entry = lb + "," + p + ":" + port;
            entries.add(new SetEntry(IpSets.LOAD_BALANCER, entry));
            if (s.externalPolicyLocal()) {
                entries.add(new SetEntry(IpSets.LOAD_BALANCER_LOCAL, entry));
            }
            if (!s.loadBalancerSourceRanges().isEmpty()) {
                entries.add(new SetEntry(IpSets.LOAD_BALANCER_FW, entry));
                boolean allowFromNode = false;
                for (Cidr c : s.loadBalancerSourceRanges()) {
                    entries.add(new SetEntry(IpSets.LOAD_BALANCER_SOURCE_CIDR, entry + "," + c));
                    allowFromNode |= nodeIP.filter(c::contains).isPresent();
                }
                if (allowFromNode) {
                    entries.add(new SetEntry(IpSets.LOAD_BALANCER_SOURCE_IP, entry + "," + lb));
                } else {
                    // Upstream's lbNoNodeAccessIPPortProtocolEntries: the node is not among the ranges (issue 119656).
                    outFilter.add("-A KUBE-IPVS-OUT-FILTER -s " + lb + " -m ipvs --vaddr " + lb + " --vproto " + p + " --vport " + port + " -j DROP");
                }
            }
            services.add(new VsEntry(vs(s, lb, port), reals(s.externalPolicyLocal(), s), !nodeAddresses.contains(lb)));
        }
        if (s.nodePort() != 0 && !nodePortAddresses.isEmpty()) {
            nodePorts(s, entries);
            for (IpAddress node : nodePortAddresses) {
                services.add(new VsEntry(vs(s, node, s.nodePort()), reals(s.externalPolicyLocal(), s), false));
            }
        }
        // Upstream skips the health-check member too when NodePorts have no node address (its `continue`).
        if (s.healthCheckNodePort() != 0 && (s.nodePort() == 0 || !nodePortAddresses.isEmpty())) {
            entries.add(new SetEntry(IpSets.HEALTH_CHECK_NODE_PORT, Integer.toString(s.healthCheckNodePort())));
        }
        if (schedulerMissing) {
            // Every virtual server of the port named, none programmed (nor its members and addresses): never half-applied.
            return PortPart.of(s.name(), List.of(), List.of(), List.of(), Optional.of(skip(s, Skipped.Cause.MISSING_SCHEDULER, "scheduler "
                    + settings.scheduler() + " is not in the kernel (module ip_vs_" + settings.scheduler()
                    + " not loadable); virtual servers not programmed: "
                    + String.join(", ", services.stream().map(e -> e.vs().key().toString()).toList()))), family);
        }
        for (VsEntry e : services) {
            if (e.bind()) {
                entries.add(new SetEntry(IpSets.IPVS_IPS, e.vs().key().address().toString()));
            }
        }
        return PortPart.of(s.name(), services, entries, outFilter, Optional.empty(), family);
    }

    private void nodePorts(ServicePortState s, List<SetEntry> entries) {
        String np = Integer.toString(s.nodePort());
        switch (s.name().protocol()) {
            case TCP -> {
                entries.add(new SetEntry(IpSets.NODE_PORT_TCP, np));
                if (s.externalPolicyLocal()) {
                    entries.add(new SetEntry(IpSets.NODE_PORT_LOCAL_TCP, np));
                }
            }
            case UDP -> {
                entries.add(new SetEntry(IpSets.NODE_PORT_UDP, np));
                if (s.externalPolicyLocal()) {
                    entries.add(new SetEntry(IpSets.NODE_PORT_LOCAL_UDP, np));
                }
            }
            case SCTP -> {
                // hash:ip,port for SCTP: one member per node address (upstream: bitmap:port cannot say sctp).
                for (IpAddress node : nodePortAddresses) {
                    entries.add(new SetEntry(IpSets.NODE_PORT_SCTP, node + ",sctp:" + np));
                }
                if (s.externalPolicyLocal()) {
                    for (IpAddress node : nodePortAddresses) {
                        entries.add(new SetEntry(IpSets.NODE_PORT_LOCAL_SCTP, node + ",sctp:" + np));
                    }
                }
            }
        }
    }

    private Optional<Skipped> badInput(ServicePortState s) {
        if (nodeAddresses.contains(s.clusterIP())) {
            return Optional.of(skip(s, Skipped.Cause.ADDRESS_COLLISION, "cluster IP " + s.clusterIP() + " is an address of this node; binding it to "
                    + PartText.DUMMY + " would take it from the node"));
        }
        int reals = Math.max(s.clusterEndpoints().size(), s.localEndpoints().size());
        if (reals > MAX_REAL_SERVERS) {
            return Optional.of(skip(s, Skipped.Cause.TOO_MANY_REAL_SERVERS, reals + " real servers exceed " + MAX_REAL_SERVERS
                    + " per virtual server"));
        }
        return Optional.empty();
    }

    /** The skip report of service port {@code s} in this family. */
    private Skipped skip(ServicePortState s, Skipped.Cause cause, String reason) {
        return new Skipped(cause, s.name() + "/" + s.name().protocol() + " " + family, reason);
    }

    private VirtualServer vs(ServicePortState s, IpAddress address, int port) {
        int flags = settings.schedulerFlags();
        int timeout = 0;
        if (s.affinityTimeoutSeconds() > 0) {
            flags |= VirtualServer.PERSISTENT;
            timeout = s.affinityTimeoutSeconds();
        }
        return new VirtualServer(new VsKey(s.name().protocol(), address, port), settings.scheduler(), flags, timeout);
    }

    /**
     * Upstream's {@code syncEndpoint}: with the Local policy the local endpoints, or when there
     * are none the cluster endpoints (pull 97081: local pods still reach the service); otherwise
     * the cluster endpoints. The state's lists already hold the ready, else serving-terminating,
     * endpoints ({@code CategorizeEndpoints}).
     */
    private static List<RealServer> reals(boolean onlyLocal, ServicePortState s) {
        List<Endpoint> eps = onlyLocal && !s.localEndpoints().isEmpty() ? s.localEndpoints() : s.clusterEndpoints();
        return eps.stream().map(e -> RealServer.serving(e.ip(), e.port().value())).distinct()
                .sorted(Comparator.comparing(RealServer::hostPort)).toList();
    }
}

package io.kproxy.backend.testkit;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.Endpoint;
import io.kproxy.state.FamilyState;
import io.kproxy.state.LocalDetector;
import io.kproxy.state.NodeInfo;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Test builders for NodeState records, with the endpoint selection of upstream's
 * {@code CategorizeEndpoints} (pkg/proxy/topology.go: ready, else serving-terminating; local set
 * likewise; no topology) so that tests describe services the way upstream's fixtures do. The
 * node-wide defaults differ by mode and come from each backend's tests ({@link NodeSpec}).
 *
 * <p>Builders are mutable and not thread-safe; the records they build are immutable. Nothing
 * here accepts or returns null.
 */
public final class States {

    private States() {
    }

    public static IpAddress ip(String s) {
        return IpAddress.parse(s);
    }

    public static Cidr cidr(String s) {
        return Cidr.parse(s);
    }

    /** A ready endpoint; {@code local} marks it on this node. */
    public static Endpoint ep(String ip, int port, boolean local) {
        return new Endpoint(ip(ip), new Port(port), local, true, true, false, local ? "test-node" : "node2", Set.of(), Set.of());
    }

    /** A terminating endpoint, serving or not. */
    public static Endpoint terminating(String ip, int port, boolean local, boolean serving) {
        return new Endpoint(ip(ip), new Port(port), local, false, serving, true, local ? "test-node" : "node2", Set.of(), Set.of());
    }

    /** A mutable description of one service port, turned into a {@link ServicePortState} by {@link #build}. */
    public static final class PortSpec {
        public String ns;
        public String name;
        public String portName;
        public Protocol protocol = Protocol.TCP;
        public String clusterIP;
        public int port;
        public int nodePort;
        public List<String> externalIPs = new ArrayList<>();
        public List<String> lbIPs = new ArrayList<>();
        public List<String> sourceRanges = new ArrayList<>();
        public boolean etpLocal;
        public boolean itpLocal;
        public int affinity;
        /** Only the iptables mode renders it (an INPUT accept); nftables ignores it. */
        public int healthCheckNodePort;
        public List<Endpoint> endpoints = new ArrayList<>();

        PortSpec(String ns, String name, String portName, String clusterIP, int port) {
            this.ns = ns;
            this.name = name;
            this.portName = portName;
            this.clusterIP = clusterIP;
            this.port = port;
        }

        public PortSpec with(UnaryOperator<PortSpec> f) {
            return f.apply(this);
        }

        public ServicePortName spn() {
            return new ServicePortName(new ServiceRef(ns, name), portName, protocol);
        }

        public ServicePortState build() {
            boolean external = nodePort != 0 || !externalIPs.isEmpty() || !lbIPs.isEmpty();
            boolean etp = etpLocal && external;
            boolean usesCluster = !itpLocal || external;
            boolean usesLocal = itpLocal || etp;
            List<Endpoint> sorted = endpoints.stream().sorted(Comparator.comparing(Endpoint::hostPort)).toList();
            List<Endpoint> ready = sorted.stream().filter(Endpoint::ready).toList();
            List<Endpoint> cluster = ready.isEmpty() ? sorted.stream().filter(e -> e.serving() && e.terminating()).toList() : ready;
            List<Endpoint> localReady = sorted.stream().filter(e -> e.local() && e.ready()).toList();
            List<Endpoint> local = localReady.isEmpty()
                    ? sorted.stream().filter(e -> e.local() && e.serving() && e.terminating()).toList()
                    : localReady;
            boolean has = sorted.stream().anyMatch(e -> e.ready() || e.serving() && e.terminating());
            return new ServicePortState(spn(), ip(clusterIP), new Port(port), nodePort, externalIPs.stream().map(States::ip).toList(),
                    lbIPs.stream().map(States::ip).toList(), sourceRanges.stream().map(States::cidr).toList(), etp, itpLocal,
                    healthCheckNodePort, affinity, sorted, usesCluster ? cluster : List.of(), usesLocal ? local : List.of(), has, usesCluster, usesLocal);
        }
    }

    public static PortSpec port(String ns, String name, String portName, String clusterIP, int port) {
        return new PortSpec(ns, name, portName, clusterIP, port);
    }

    /**
     * Node-wide settings of a test state. The mode's defaults (its name, localhost NodePorts,
     * nodePortAddresses) are given by the backend's tests; the rest is upstream's test node.
     */
    public static final class NodeSpec {
        public final String mode;
        public boolean masqueradeAll;
        public List<String> serviceCIDRs = new ArrayList<>(List.of("172.30.0.0/16", "fd00:30::/108"));
        public int masqueradeBit = 14;
        public boolean localhostNodePorts;
        public NodePortAddresses v4NodePorts;
        public NodePortAddresses v6NodePorts;
        public LocalDetector v4Detector = new LocalDetector.Cidrs(List.of(cidr("10.0.0.0/8")));
        public LocalDetector v6Detector = new LocalDetector.Cidrs(List.of(cidr("fd00:10::/48")));
        public String v4NodeIP = "192.168.0.2";
        public String v6NodeIP = "fd00:192::2";
        /** The {@code ipvs} section in force (only the ipvs backend reads it). */
        public DataplaneSettings.Ipvs ipvs = DataplaneSettings.Ipvs.DEFAULT;

        public NodeSpec(String mode, boolean localhostNodePorts, NodePortAddresses v4NodePorts, NodePortAddresses v6NodePorts) {
            this.mode = Objects.requireNonNull(mode, "mode");
            this.localhostNodePorts = localhostNodePorts;
            this.v4NodePorts = Objects.requireNonNull(v4NodePorts, "v4NodePorts");
            this.v6NodePorts = Objects.requireNonNull(v6NodePorts, "v6NodePorts");
        }

        public NodeState state(List<ServicePortState> ports) {
            PersistentMap<ServicePortName, ServicePortState> v4 = PersistentMap.empty();
            PersistentMap<ServicePortName, ServicePortState> v6 = PersistentMap.empty();
            for (ServicePortState p : ports) {
                if (p.clusterIP().family() == IpFamily.IPV4) {
                    v4 = v4.plus(p.name(), p);
                } else {
                    v6 = v6.plus(p.name(), p);
                }
            }
            NodeInfo node = new NodeInfo("test-node", true, "", List.of(ip(v4NodeIP), ip(v6NodeIP)), List.of(), true);
            DataplaneSettings settings = new DataplaneSettings(mode, masqueradeAll, masqueradeBit, 14, localhostNodePorts,
                    serviceCIDRs.stream().map(States::cidr).toList(), ipvs);
            return new NodeState(node, settings, true, new FamilyState(IpFamily.IPV4, v4, List.of(ip(v4NodeIP)), v4NodePorts, v4Detector),
                    new FamilyState(IpFamily.IPV6, v6, List.of(ip(v6NodeIP)), v6NodePorts, v6Detector));
        }
    }
}

package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.ArrayList;
import java.util.List;

/**
 * The node-level, per-family parts of the desired state, resolved from the configuration and
 * the Node: primary IPs ({@code cmd/kube-proxy/app/server.go} detectNodeIPs), NodePort addresses
 * ({@code pkg/proxy/util/nodeport_addresses.go} with the {@code primary} keyword resolved as
 * server.go does) and the local traffic detector ({@code server_linux.go} getLocalDetectors).
 */
final class NodeContext {

    private static final Cidr IPV4_LOOPBACK = Cidr.parse("127.0.0.0/8");
    private static final Cidr IPV6_LOOPBACK = Cidr.parse("::1/128");
    private static final Cidr IPV4_ALL = Cidr.parse("0.0.0.0/0");
    private static final Cidr IPV6_ALL = Cidr.parse("::/0");

    private NodeContext() {
    }

    static NodeInfo nodeInfo(ProxySettings settings, NodeSpec node) {
        return new NodeInfo(settings.nodeName(), node.observed(), node.zone(), node.primaryIPs(), node.podCIDRs(), node.eligible(),
                node.localAddresses());
    }

    /** The node's IP of {@code family}: from the Node, overridden by a {@code bindAddress} of that family. */
    static List<IpAddress> nodeIPs(ProxySettings settings, NodeSpec node, IpFamily family) {
        for (IpAddress bind : settings.bindAddress()) {
            if (bind.family() == family) {
                return List.of(bind);
            }
        }
        for (IpAddress ip : node.primaryIPs()) {
            if (ip.family() == family) {
                return List.of(ip);
            }
        }
        return List.of();
    }

    /**
     * NewNodePortAddresses for {@code family} over the configured entries, the mode default
     * applied ({@code nftables} ⇒ {@code primary}, others ⇒ all) and keywords expanded:
     * {@code primary} ⇒ the node's non-loopback primary IPs, {@code localhost} ⇒ the loopback
     * networks, {@code all} ⇒ the zero CIDRs. No CIDR of the family, or a zero CIDR ⇒ match all.
     */
    static NodePortAddresses nodePortAddresses(ProxySettings settings, NodeSpec node, IpFamily family) {
        List<String> entries = settings.nodePortAddresses();
        if (entries.isEmpty() && settings.mode().equals("nftables")) {
            entries = List.of(ProxySettings.PRIMARY);
        }
        List<Cidr> cidrs = new ArrayList<>();
        for (String entry : entries) {
            switch (entry) {
                case ProxySettings.PRIMARY -> {
                    for (IpFamily f : IpFamily.values()) {
                        for (IpAddress ip : nodeIPs(settings, node, f)) {
                            if (!ip.isLoopback()) {
                                cidrs.add(Cidr.ofAddress(ip));
                            }
                        }
                    }
                }
                case ProxySettings.LOCALHOST -> cidrs.addAll(List.of(IPV4_LOOPBACK, IPV6_LOOPBACK));
                case ProxySettings.ALL -> cidrs.addAll(List.of(IPV4_ALL, IPV6_ALL));
                default -> cidrs.add(Cidr.parse("nodePortAddresses", entry));
            }
        }
        List<Cidr> ofFamily = new ArrayList<>();
        for (Cidr c : cidrs) {
            if (c.family() != family) {
                continue;
            }
            if (c.isZero()) {
                return new NodePortAddresses.MatchAll();
            }
            if (!ofFamily.contains(c)) {
                ofFamily.add(c);
            }
        }
        return ofFamily.isEmpty() ? new NodePortAddresses.MatchAll() : new NodePortAddresses.Cidrs(ofFamily);
    }

    /** getLocalDetectors: the first CIDR of the family (ClusterCIDR, NodeCIDR), or the interface modes; else none. */
    static LocalDetector localDetector(ProxySettings settings, NodeSpec node, IpFamily family) {
        return switch (settings.detectLocalMode()) {
            case CLUSTER_CIDR -> firstOf(settings.clusterCIDRs(), family);
            case NODE_CIDR -> firstOf(node.podCIDRs(), family);
            case BRIDGE_INTERFACE -> settings.bridgeInterface().isEmpty() ? new LocalDetector.None()
                    : new LocalDetector.BridgeInterface(settings.bridgeInterface());
            case INTERFACE_NAME_PREFIX -> settings.interfaceNamePrefix().isEmpty() ? new LocalDetector.None()
                    : new LocalDetector.InterfacePrefix(settings.interfaceNamePrefix());
        };
    }

    private static LocalDetector firstOf(List<Cidr> cidrs, IpFamily family) {
        for (Cidr c : cidrs) {
            if (c.family() == family) {
                return new LocalDetector.Cidrs(List.of(c));
            }
        }
        return new LocalDetector.None();
    }
}

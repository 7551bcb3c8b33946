package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Writes the parts of a {@link ClusterState} in the current snapshot format ({@link SnapshotCodec#VERSION}). */
final class SnapshotWriter {

    private final DataOutputStream out;

    SnapshotWriter(DataOutputStream out) {
        this.out = out;
    }

    void settings(ProxySettings s) throws IOException {
        string(s.nodeName());
        string(s.mode());
        out.writeBoolean(s.masqueradeAll());
        out.writeByte(s.iptablesMasqueradeBit());
        out.writeByte(s.nftablesMasqueradeBit());
        out.writeBoolean(s.localhostNodePorts());
        cidrs(s.serviceCIDRs());
        cidrs(s.clusterCIDRs());
        string(s.detectLocalMode().apiName());
        string(s.bridgeInterface());
        string(s.interfaceNamePrefix());
        strings(s.nodePortAddresses());
        ips(s.bindAddress());
        DataplaneSettings.Ipvs ipvs = s.ipvs();
        string(ipvs.scheduler());
        cidrs(ipvs.excludeCIDRs());
        out.writeBoolean(ipvs.strictARP());
        out.writeLong(ipvs.tcpTimeout().toNanos());
        out.writeLong(ipvs.tcpFinTimeout().toNanos());
        out.writeLong(ipvs.udpTimeout().toNanos());
    }

    /** The pin in force, or none ({@code null}): a presence byte, then its fields. */
    void pin(Pin p) throws IOException {
        out.writeBoolean(p != null);
        if (p != null) {
            out.writeLong(p.toOffset());
            out.writeLong(p.pinnedAt());
            string(p.reason());
        }
    }

    void node(NodeSpec n) throws IOException {
        string(n.name());
        origins(n.origin());
        out.writeBoolean(n.deleted());
        string(n.zone());
        ips(n.primaryIPs());
        cidrs(n.podCIDRs());
        out.writeBoolean(n.eligible());
        ips(n.localAddresses());
    }

    void service(ServiceSpec s) throws IOException {
        string(s.ref().namespace());
        string(s.ref().name());
        origin(s.origin());
        string(s.skipReason());
        ips(s.clusterIPs());
        out.writeInt(s.ports().size());
        for (ServiceSpec.PortSpec p : s.ports()) {
            string(p.name());
            out.writeByte(p.protocol().ordinal());
            out.writeShort(p.port().value());
            out.writeShort(p.nodePort());
        }
        ips(s.externalIPs());
        ips(s.loadBalancerVIPs());
        cidrs(s.sourceRanges());
        out.writeBoolean(s.externalPolicyLocal());
        out.writeBoolean(s.internalPolicyLocal());
        out.writeShort(s.healthCheckNodePort());
        out.writeInt(s.affinityTimeoutSeconds());
    }

    void slice(SliceSpec s) throws IOException {
        string(s.ref().namespace());
        string(s.ref().name());
        origin(s.origin());
        string(s.service().name());
        out.writeByte(s.addressType().ordinal());
        out.writeInt(s.ports().size());
        for (SliceSpec.SlicePort p : s.ports()) {
            string(p.name());
            out.writeByte(p.protocol().ordinal());
            out.writeShort(p.port().value());
        }
        out.writeInt(s.endpoints().size());
        for (SliceSpec.SliceEndpoint e : s.endpoints()) {
            ip(e.ip());
            out.writeByte((e.ready() ? 1 : 0) | (e.serving() ? 2 : 0) | (e.terminating() ? 4 : 0));
            string(e.nodeName());
            strings(new TreeSet<>(e.zoneHints()));
            strings(new TreeSet<>(e.nodeHints()));
        }
    }

    /** One ServiceCIDR (format 3): name, origin, ranges. */
    void serviceCidr(ServiceCidrSpec s) throws IOException {
        string(s.name());
        origin(s.origin());
        cidrs(s.cidrs());
    }

    private void origin(Origin o) throws IOException {
        out.writeLong(o.offset());
        string(o.resourceVersion());
    }

    private void origins(List<Origin> os) throws IOException {
        out.writeInt(os.size());
        for (Origin o : os) {
            origin(o);
        }
    }

    private void ip(IpAddress ip) throws IOException {
        if (ip.family() == IpFamily.IPV4) {
            out.writeByte(4);
            out.writeInt((int) ip.low());
        } else {
            out.writeByte(6);
            out.writeLong(ip.high());
            out.writeLong(ip.low());
        }
    }

    private void ips(List<IpAddress> ips) throws IOException {
        out.writeInt(ips.size());
        for (IpAddress ip : ips) {
            ip(ip);
        }
    }

    private void cidrs(List<Cidr> cidrs) throws IOException {
        out.writeInt(cidrs.size());
        for (Cidr c : cidrs) {
            ip(c.network());
            out.writeByte(c.prefixLength());
        }
    }

    private void strings(Collection<String> values) throws IOException {
        out.writeInt(values.size());
        for (String v : values) {
            string(v);
        }
    }

    private void string(String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }
}

package io.kproxy.state;

import io.kproxy.config.LocalMode;
import io.kproxy.model.Cidr;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServiceRef;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads snapshot formats 1 to 4 ({@link SnapshotCodec}; the codec decides which parts to read). Every value goes through its validating
 * constructor; counts are bounded by the bytes left, so garbage cannot make it allocate wildly.
 * Repeated strings (node names, zones, namespaces) are shared to keep the decoded state small.
 */
final class SnapshotReader {

    private final DataInputStream in;
    private final int limit;
    private final Map<String, String> strings = new HashMap<>();
    private int servicesRead;

    SnapshotReader(DataInputStream in, int limit) {
        this.in = in;
        this.limit = limit;
    }

    int servicesRead() {
        return servicesRead;
    }

    /** A count that cannot exceed the bytes left (every item takes at least one byte). */
    int count() throws IOException {
        int n = in.readInt();
        if (n < 0 || n > limit || n > in.available()) {
            throw new IOException("implausible count " + n);
        }
        return n;
    }

    /** The settings; {@code withIpvs} for format 4, older formats decode with upstream's ipvs defaults. */
    ProxySettings settings(boolean withIpvs) throws IOException {
        String nodeName = string();
        String mode = string();
        boolean masqueradeAll = in.readBoolean();
        int iptBit = in.readUnsignedByte();
        int nftBit = in.readUnsignedByte();
        boolean localhostNodePorts = in.readBoolean();
        List<Cidr> serviceCIDRs = cidrs();
        List<Cidr> clusterCIDRs = cidrs();
        String localModeText = string();
        LocalMode localMode = null;
        for (LocalMode m : LocalMode.values()) {
            if (m.apiName().equals(localModeText)) {
                localMode = m;
            }
        }
        if (localMode == null) {
            throw new IllegalArgumentException("unknown detectLocalMode " + localModeText);
        }
        ProxySettings s = new ProxySettings(nodeName, mode, masqueradeAll, iptBit, nftBit, localhostNodePorts, serviceCIDRs, clusterCIDRs,
                localMode, string(), string(), stringList(), ips(), withIpvs ? ipvs() : DataplaneSettings.Ipvs.DEFAULT);
        s.dataplane(s.serviceCIDRs()); // validates the masquerade bits
        for (String entry : s.nodePortAddresses()) {
            if (!entry.equals(ProxySettings.PRIMARY) && !entry.equals(ProxySettings.ALL) && !entry.equals(ProxySettings.LOCALHOST)) {
                Cidr.parse("nodePortAddresses", entry);
            }
        }
        return s;
    }

    private DataplaneSettings.Ipvs ipvs() throws IOException {
        return new DataplaneSettings.Ipvs(string(), cidrs(), in.readBoolean(), Duration.ofNanos(in.readLong()), Duration.ofNanos(in.readLong()),
                Duration.ofNanos(in.readLong()));
    }

    /** The pin section (format 2); {@code null} when no pin was in force. */
    Pin pin() throws IOException {
        int present = in.readUnsignedByte();
        if (present > 1) {
            throw new IllegalArgumentException("pin presence byte " + present);
        }
        return present == 0 ? null : new Pin(in.readLong(), in.readLong(), string());
    }

    /** @param withLocalAddresses the format holds the recorded local addresses (version 5 on) */
    NodeSpec node(boolean withLocalAddresses) throws IOException {
        String name = string();
        List<Origin> origin = new ArrayList<>();
        int n = count();
        for (int i = 0; i < n; i++) {
            origin.add(origin());
        }
        NodeSpec node = new NodeSpec(name, origin, in.readBoolean(), string(), ips(), cidrs(), in.readBoolean());
        return withLocalAddresses ? node.withLocalAddresses(List.copyOf(new TreeSet<>(ips()))) : node;
    }

    ServiceSpec service() throws IOException {
        ServiceRef ref = new ServiceRef(string(), string());
        Origin origin = origin();
        String skip = string();
        List<IpAddress> clusterIPs = ips();
        int n = count();
        List<ServiceSpec.PortSpec> ports = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ServiceSpec.PortSpec p = new ServiceSpec.PortSpec(string(), protocol(), new Port(in.readUnsignedShort()), in.readUnsignedShort());
            p.key(ref); // validates the port name
            ports.add(p);
        }
        servicesRead++;
        return new ServiceSpec(ref, origin, skip, clusterIPs, ports, ips(), ips(), cidrs(), in.readBoolean(), in.readBoolean(),
                in.readUnsignedShort(), in.readInt());
    }

    SliceSpec slice() throws IOException {
        EndpointSliceRef ref = new EndpointSliceRef(string(), string());
        Origin origin = origin();
        ServiceRef service = new ServiceRef(ref.namespace(), string());
        int type = in.readUnsignedByte();
        if (type >= SliceSpec.AddressType.values().length) {
            throw new IllegalArgumentException("unknown address type " + type);
        }
        int n = count();
        List<SliceSpec.SlicePort> ports = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SliceSpec.SlicePort p = new SliceSpec.SlicePort(string(), protocol(), new Port(in.readUnsignedShort()));
            new ServiceSpec.PortSpec(p.name(), p.protocol(), p.port(), 0).key(service); // validates the port name
            ports.add(p);
        }
        n = count();
        List<SliceSpec.SliceEndpoint> endpoints = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            IpAddress ip = ip();
            int flags = in.readUnsignedByte();
            endpoints.add(new SliceSpec.SliceEndpoint(ip, (flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0, string(),
                    Set.copyOf(stringList()), Set.copyOf(stringList())));
        }
        return new SliceSpec(ref, origin, service, SliceSpec.AddressType.values()[type], ports, endpoints);
    }

    /** One ServiceCIDR (format 3): name, origin, ranges. */
    ServiceCidrSpec serviceCidr() throws IOException {
        String name = string();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("ServiceCIDR without a name");
        }
        return new ServiceCidrSpec(name, origin(), cidrs());
    }

    private Protocol protocol() throws IOException {
        int p = in.readUnsignedByte();
        if (p >= Protocol.values().length) {
            throw new IllegalArgumentException("unknown protocol " + p);
        }
        return Protocol.values()[p];
    }

    private Origin origin() throws IOException {
        return new Origin(in.readLong(), string());
    }

    private IpAddress ip() throws IOException {
        int family = in.readUnsignedByte();
        return switch (family) {
            case 4 -> IpAddress.ofV4(in.readInt());
            case 6 -> IpAddress.ofV6(in.readLong(), in.readLong());
            default -> throw new IllegalArgumentException("unknown address family tag " + family);
        };
    }

    private List<IpAddress> ips() throws IOException {
        int n = count();
        List<IpAddress> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(ip());
        }
        return out;
    }

    private List<Cidr> cidrs() throws IOException {
        int n = count();
        List<Cidr> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new Cidr(ip(), in.readUnsignedByte()));
        }
        return out;
    }

    private List<String> stringList() throws IOException {
        int n = count();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(string());
        }
        return out;
    }

    private String string() throws IOException {
        int n = count();
        byte[] b = in.readNBytes(n);
        if (b.length != n) {
            throw new IOException("truncated string");
        }
        String s = new String(b, StandardCharsets.UTF_8);
        return strings.computeIfAbsent(s, k -> k);
    }
}

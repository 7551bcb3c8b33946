package io.kproxy.testkit.netns;

import io.kproxy.netns.NetnsThread;
import io.kproxy.testkit.NetNs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The packet-test world, every piece a private network namespace with no route out of the
 * machine: a node ({@code node}) with pods {@code pod1..pod3} on a bridge, an external client
 * ({@code ext}) on the node's uplink, and a second node ({@code node2}) with its own pod
 * ({@code rpod}) reached through the first node. Dual-stack. The node gets what kubelet and the
 * CNI would set (forwarding, bridge netfilter when the kernel has it, hairpin on bridge ports,
 * routes); nothing else programs it. Echo servers in {@code pod1}, {@code pod2} and {@code rpod}
 * answer {@code <pod> <source-ip>} on {@link #SERVER_PORTS}.
 *
 * <pre>
 *  ext 203.0.113.2 (+.130) fd00:203::2 (+::82)
 *   |  ve-ext 203.0.113.1 fd00:203::1
 *  node --kbr0 10.0.1.1 fd00:10:0:1::1-- pod1 .11  pod2 .12  pod3 .13   (10.0.1.0/24, fd00:10:0:1::/64)
 *   |  ve-n2 192.168.0.2 fd00:192::2  (the node's primary IPs)
 *  node2 192.168.0.3 fd00:192::3 --vp-rpod 10.0.2.1-- rpod 10.0.2.11 fd00:10:0:2::11
 * </pre>
 *
 * Building takes about a second; close deletes every namespace (and everything inside), also
 * after a partial build.
 */
public final class Topology implements AutoCloseable {

    public static final int[] SERVER_PORTS = {8080, 5353};
    public static final List<String> BRIDGE_PODS = List.of("pod1", "pod2", "pod3");

    private final Map<String, NetNs> namespaces = new LinkedHashMap<>();
    private final Map<String, NetnsThread> executors = new LinkedHashMap<>();
    private final List<EchoServer> servers = new ArrayList<>();

    private Topology() {
    }

    /** Builds the topology; call {@code KernelTests.require("ip")} first. */
    public static Topology create() {
        Topology t = new Topology();
        try {
            t.build();
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
        return t;
    }

    private void build() {
        for (String n : List.of("node", "pod1", "pod2", "pod3", "ext", "node2", "rpod")) {
            namespaces.put(n, NetNs.create(n));
        }
        NetNs node = ns("node");
        node.exec("ip", "link", "add", "kbr0", "type", "bridge");
        node.exec("ip", "addr", "add", "10.0.1.1/24", "dev", "kbr0");
        node.exec("ip", "addr", "add", "fd00:10:0:1::1/64", "dev", "kbr0", "nodad");
        node.exec("ip", "link", "set", "kbr0", "up");
        int host = 11;
        for (String pod : BRIDGE_PODS) {
            String port = "vp-" + pod;
            node.exec("ip", "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns(pod).name());
            node.exec("ip", "link", "set", port, "master", "kbr0");
            node.exec("ip", "link", "set", port, "up");
            node.exec("ip", "link", "set", port, "type", "bridge_slave", "hairpin", "on");
            endHost(ns(pod), "10.0.1." + host + "/24", "fd00:10:0:1::" + host + "/64", "10.0.1.1", "fd00:10:0:1::1");
            host++;
        }
        node.exec("ip", "link", "add", "ve-ext", "type", "veth", "peer", "name", "eth0", "netns", ns("ext").name());
        node.exec("ip", "addr", "add", "203.0.113.1/24", "dev", "ve-ext");
        node.exec("ip", "addr", "add", "fd00:203::1/64", "dev", "ve-ext", "nodad");
        node.exec("ip", "link", "set", "ve-ext", "up");
        NetNs ext = ns("ext");
        endHost(ext, "203.0.113.2/24", "fd00:203::2/64", "203.0.113.1", "fd00:203::1");
        ext.exec("ip", "addr", "add", "203.0.113.130/24", "dev", "eth0");
        // Deprecated at once, so that it is a source only when a test binds to it.
        ext.exec("ip", "addr", "add", "fd00:203::82/64", "dev", "eth0", "nodad", "preferred_lft", "0");

        node.exec("ip", "link", "add", "ve-n2", "type", "veth", "peer", "name", "eth0", "netns", ns("node2").name());
        node.exec("ip", "addr", "add", "192.168.0.2/24", "dev", "ve-n2");
        node.exec("ip", "addr", "add", "fd00:192::2/64", "dev", "ve-n2", "nodad");
        node.exec("ip", "link", "set", "ve-n2", "up");
        NetNs node2 = ns("node2");
        endHost(node2, "192.168.0.3/24", "fd00:192::3/64", "192.168.0.2", "fd00:192::2");
        node2.exec("ip", "link", "add", "vp-rpod", "type", "veth", "peer", "name", "eth0", "netns", ns("rpod").name());
        node2.exec("ip", "addr", "add", "10.0.2.1/24", "dev", "vp-rpod");
        node2.exec("ip", "addr", "add", "fd00:10:0:2::1/64", "dev", "vp-rpod", "nodad");
        node2.exec("ip", "link", "set", "vp-rpod", "up");
        endHost(ns("rpod"), "10.0.2.11/24", "fd00:10:0:2::11/64", "10.0.2.1", "fd00:10:0:2::1");

        node.exec("ip", "route", "add", "10.0.2.0/24", "via", "192.168.0.3");
        node.exec("ip", "-6", "route", "add", "fd00:10:0:2::/64", "via", "fd00:192::3");
        // Unmatched destinations (an LB IP nobody DNATs) are forwarded towards the client side,
        // where they die: the node's filter verdicts are what the tests observe.
        node.exec("ip", "route", "add", "default", "via", "203.0.113.2");
        node.exec("ip", "-6", "route", "add", "default", "via", "fd00:203::2");
        for (NetNs router : List.of(node, node2)) {
            sysctl(router, "net/ipv4/ip_forward", "1");
            sysctl(router, "net/ipv6/conf/all/forwarding", "1");
        }
        sysctl(node, "net/bridge/bridge-nf-call-iptables", "1");
        sysctl(node, "net/bridge/bridge-nf-call-ip6tables", "1");

        for (String n : namespaces.keySet()) {
            executors.put(n, NetnsThread.enter(ns(n).name(), "test"));
        }
        for (String pod : List.of("pod1", "pod2", "rpod")) {
            servers.add(EchoServer.start(executors.get(pod), pod, SERVER_PORTS));
        }
    }

    private static void endHost(NetNs ns, String v4, String v6, String gw4, String gw6) {
        ns.exec("ip", "link", "set", "eth0", "up");
        ns.exec("ip", "addr", "add", v4, "dev", "eth0");
        ns.exec("ip", "addr", "add", v6, "dev", "eth0", "nodad");
        ns.exec("ip", "route", "add", "default", "via", gw4);
        ns.exec("ip", "-6", "route", "add", "default", "via", gw6);
    }

    /** Writes a sysctl inside {@code ns} when the kernel has it (bridge netfilter may be absent). */
    private static void sysctl(NetNs ns, String key, String value) {
        ns.execWithInput(null, "sh", "-c", "if [ -e /proc/sys/" + key + " ]; then echo " + value + " > /proc/sys/" + key + "; fi");
    }

    /** The namespace of a role: {@code node}, {@code pod1..3}, {@code ext}, {@code node2}, {@code rpod}. */
    public NetNs ns(String role) {
        NetNs n = namespaces.get(role);
        if (n == null) {
            throw new IllegalArgumentException("no namespace for role " + role);
        }
        return n;
    }

    /** A thread inside a role's namespace. */
    public NetnsThread executor(String role) {
        return executors.get(role);
    }

    /** A prober sending from a role's namespace. */
    public Probe probe(String role, int timeoutMillis) {
        return new Probe(executor(role), timeoutMillis);
    }

    @Override
    public void close() {
        servers.forEach(EchoServer::close);
        executors.values().forEach(NetnsThread::close);
        List<RuntimeException> failures = new ArrayList<>();
        for (NetNs n : namespaces.values()) {
            try {
                n.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            throw failures.getFirst();
        }
    }
}

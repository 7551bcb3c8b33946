package io.kproxy.netlink;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.netns.NetnsThread;
import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.netns.EchoServer;
import io.kproxy.testkit.netns.Outcome;
import io.kproxy.testkit.netns.Probe;
import io.kproxy.testkit.uml.UmlScenario;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs inside User-Mode Linux ({@link KernelAccessUmlIT}): the three clients against a kernel
 * with IPVS, ipset and dummy devices, checked with the tools ({@code ipvsadm -Ln},
 * {@code ipset list}, {@code ip addr}) and with real TCP and UDP connections.
 *
 * <pre>
 *  cli 10.0.3.2 --vc-- node 10.0.3.1 | 10.0.1.1 --vp1-- pod1 10.0.1.11
 *  fd00:10:3::2             fd00:10:3::1 | fd00:10:1::1     fd00:10:1::11
 *                      kube-ipvs0     | 10.0.2.1 --vp2-- pod2 10.0.2.12
 *      10.96.0.10/32, fd00:96::10/128 | fd00:10:2::1     fd00:10:2::12
 * </pre>
 *
 * Prints {@code SCENARIO PASS} and exits 0, or prints the failure and exits 1.
 */
public final class KernelAccessScenario {

    static final String VIP = "10.96.0.10";
    static final String VIP6 = "fd00:96::10";

    private KernelAccessScenario() {
    }

    public static void main(String[] args) {
        UmlScenario.exit(KernelAccessScenario::flows);
    }

    static void flows() throws Exception {
        long t0 = System.nanoTime();
        try (NetNs node = NetNs.create("node"); NetNs pod1 = NetNs.create("pod1"); NetNs pod2 = NetNs.create("pod2"); NetNs cli = NetNs.create("cli")) {
            link(node, pod1, "vp1", 1, 11);
            link(node, pod2, "vp2", 2, 12);
            link(node, cli, "vc", 3, 2);
            node.exec("sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1");
            Optional<String> ns = Optional.of(node.name());
            dummyAndAddresses(node, ns);
            ipsets(node, ns);
            try (IpvsClient ipvs = IpvsClient.open(ns);
                    NetnsThread p1 = NetnsThread.enter(pod1.name(), "pod1"); NetnsThread p2 = NetnsThread.enter(pod2.name(), "pod2");
                    NetnsThread c = NetnsThread.enter(cli.name(), "cli"); NetnsThread n = NetnsThread.enter(node.name(), "node");
                    EchoServer s1 = EchoServer.start(p1, "pod1", 8080); EchoServer s2 = EchoServer.start(p2, "pod2", 8080)) {
                assertThat(List.of(s1.name(), s2.name())).containsExactly("pod1", "pod2");
                virtualServices(node, ipvs);
                traffic(new Probe(c, 2000), "cli", VIP, "10.0.3.2");
                traffic(new Probe(n, 2000), "node", VIP, null);
                traffic(new Probe(c, 2000), "cli", VIP6, "fd00:10:3::2");
                changes(node, ipvs);
            }
            try (RtnlClient rtnl = RtnlClient.open(ns)) {
                assertThat(rtnl.deleteLink("kube-ipvs0")).isTrue();
                assertThat(rtnl.linkIndex("kube-ipvs0")).isEmpty();
                assertThat(node.tryExecWithInput(null, "ip", "link", "show", "kube-ipvs0").exitCode()).isNotZero();
            }
        }
        System.out.println("flows took " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /** A veth pair between the node (10.0.{net}.1, fd00:10:{net}::1) and another namespace (host part {host}), default routes via the node. */
    private static void link(NetNs node, NetNs other, String dev, int net, int host) {
        node.exec("ip", "link", "add", dev, "type", "veth", "peer", "name", "eth0", "netns", other.name());
        node.exec("ip", "addr", "add", "10.0." + net + ".1/24", "dev", dev);
        node.exec("ip", "addr", "add", "fd00:10:" + net + "::1/64", "dev", dev, "nodad");
        node.exec("ip", "link", "set", dev, "up");
        other.exec("ip", "addr", "add", "10.0." + net + "." + host + "/24", "dev", "eth0");
        other.exec("ip", "addr", "add", "fd00:10:" + net + "::" + host + "/64", "dev", "eth0", "nodad");
        other.exec("ip", "link", "set", "eth0", "up");
        other.exec("ip", "route", "add", "default", "via", "10.0." + net + ".1");
        other.exec("ip", "-6", "route", "add", "default", "via", "fd00:10:" + net + "::1");
    }

    private static void dummyAndAddresses(NetNs node, Optional<String> ns) throws Exception {
        try (RtnlClient rtnl = RtnlClient.open(ns)) {
            rtnl.ensureDummy("kube-ipvs0");
            rtnl.ensureDummy("kube-ipvs0"); // idempotent
            List<LinkAddress> want = List.of(LinkAddress.host(InetAddress.getByName(VIP)), LinkAddress.host(InetAddress.getByName("10.96.0.11")),
                    LinkAddress.host(InetAddress.getByName("fd00:96::10")));
            rtnl.addAddresses("kube-ipvs0", want);
            rtnl.addAddresses("kube-ipvs0", want); // idempotent
            String ip = node.exec("ip", "addr", "show", "dev", "kube-ipvs0");
            assertThat(ip).contains("kube-ipvs0: <BROADCAST,NOARP,UP,LOWER_UP>").contains("inet 10.96.0.10/32").contains("inet 10.96.0.11/32")
                    .contains("inet6 fd00:96::10/128");
            // The kernel adds an IPv6 link-local address to the link when it goes up; the client reports it too.
            assertThat(rtnl.addresses("kube-ipvs0")).filteredOn(a -> !a.address().isLinkLocalAddress()).containsExactlyInAnyOrderElementsOf(want);
            rtnl.deleteAddresses("kube-ipvs0", List.of(want.get(1)));
            assertThat(node.exec("ip", "addr", "show", "dev", "kube-ipvs0")).doesNotContain("10.96.0.11").contains("10.96.0.10/32");
            // Every link's addresses but kube-ipvs0's (the veths', with their link-local ones), none of kube-ipvs0's.
            List<String> others = rtnl.addressesExcept("kube-ipvs0").stream().map(a -> a.address().getHostAddress()).toList();
            assertThat(others).contains("10.0.1.1", "10.0.2.1", "10.0.3.1", "fd00:10:1:0:0:0:0:1").doesNotContain(VIP);
            assertThat(rtnl.addressesExcept("no-such-link").stream().map(a -> a.address().getHostAddress()).toList()).contains(VIP, "10.0.1.1");
            assertThat(rtnl.linkIndex("no-such-link")).isEmpty();
            assertThat(rtnl.deleteLink("no-such-link")).isFalse();
            System.out.println("rtnl ok: " + rtnl.addresses("kube-ipvs0"));
        }
    }

    private static void ipsets(NetNs node, Optional<String> ns) throws Exception {
        InetAddress vip = InetAddress.getByName(VIP);
        InetAddress pod = InetAddress.getByName("10.0.1.11");
        try (IpsetClient ipset = IpsetClient.open(ns)) {
            List<IpsetOp> ops = List.of(
                    new IpsetOp.Create(IpsetSpec.hash("KUBE-CLUSTER-IP", IpsetType.HASH_IP_PORT, false)),
                    new IpsetOp.Create(IpsetSpec.hash("KUBE-LOOP-BACK", IpsetType.HASH_IP_PORT_IP, false)),
                    new IpsetOp.Create(IpsetSpec.hash("KUBE-LOAD-BALANCER-SOURCE-CIDR", IpsetType.HASH_IP_PORT_NET, false)),
                    new IpsetOp.Create(IpsetSpec.hash("KUBE-6-CLUSTER-IP", IpsetType.HASH_IP_PORT, true)),
                    new IpsetOp.Create(IpsetSpec.hash("KUBE-NET", IpsetType.HASH_NET, false)),
                    new IpsetOp.Create(IpsetSpec.hash("KUBE-IPS", IpsetType.HASH_IP, false)),
                    new IpsetOp.Create(IpsetSpec.ports("KUBE-NODE-PORT-TCP")),
                    new IpsetOp.Create(IpsetSpec.ports("KUBE-NODE-PORT-TMP")),
                    new IpsetOp.Add("KUBE-CLUSTER-IP", new IpsetEntry.IpPort(vip, 6, 80)),
                    new IpsetOp.Add("KUBE-CLUSTER-IP", new IpsetEntry.IpPort(vip, 17, 53)),
                    new IpsetOp.Add("KUBE-LOOP-BACK", new IpsetEntry.IpPortIp(pod, 6, 8080, pod)),
                    new IpsetOp.Add("KUBE-LOAD-BALANCER-SOURCE-CIDR", new IpsetEntry.IpPortNet(vip, 6, 80, InetAddress.getByName("203.0.113.0"), 24)),
                    new IpsetOp.Add("KUBE-6-CLUSTER-IP", new IpsetEntry.IpPort(InetAddress.getByName("fd00:96::10"), 6, 80)),
                    new IpsetOp.Add("KUBE-NET", new IpsetEntry.Net(InetAddress.getByName("10.244.0.0"), 16)),
                    new IpsetOp.Add("KUBE-IPS", new IpsetEntry.Ip(vip)),
                    new IpsetOp.Add("KUBE-NODE-PORT-TMP", new IpsetEntry.Port(30080)),
                    new IpsetOp.Swap("KUBE-NODE-PORT-TCP", "KUBE-NODE-PORT-TMP"),
                    new IpsetOp.Destroy("KUBE-NODE-PORT-TMP"));
            ipset.apply(ops);
            ipset.apply(ops.subList(0, ops.size() - 2)); // creates and adds are idempotent
            String list = node.exec("ipset", "list");
            assertThat(list).contains("Name: KUBE-CLUSTER-IP\nType: hash:ip,port").contains("10.96.0.10,tcp:80").contains("10.96.0.10,udp:53")
                    .contains("10.0.1.11,tcp:8080,10.0.1.11").contains("10.96.0.10,tcp:80,203.0.113.0/24").contains("fd00:96::10,tcp:80")
                    .contains("10.244.0.0/16").contains("Name: KUBE-NODE-PORT-TCP\nType: bitmap:port").contains("30080")
                    .contains("Name: KUBE-NODE-PORT-TMP");
            assertThat(ipset.list("KUBE-CLUSTER-IP").orElseThrow().entries()).extracting(IpsetEntry::text)
                    .containsExactlyInAnyOrder("10.96.0.10,tcp:80", "10.96.0.10,udp:53");
            assertThat(ipset.list("KUBE-6-CLUSTER-IP").orElseThrow().ipv6()).isTrue();
            assertThat(ipset.list("KUBE-NODE-PORT-TCP").orElseThrow().entries()).containsExactly(new IpsetEntry.Port(30080));
            assertThat(ipset.list("NO-SUCH-SET")).isEmpty();
            assertThat(ipset.exists("KUBE-CLUSTER-IP")).isTrue();
            assertThat(ipset.exists("KUBE-6-CLUSTER-IP")).isTrue();
            assertThat(ipset.exists("NO-SUCH-SET")).isFalse();
            ipset.apply(List.of(new IpsetOp.Delete("KUBE-CLUSTER-IP", new IpsetEntry.IpPort(vip, 17, 53)),
                    new IpsetOp.Delete("KUBE-CLUSTER-IP", new IpsetEntry.IpPort(vip, 17, 53)), new IpsetOp.Flush("KUBE-NET"),
                    new IpsetOp.Destroy("KUBE-NODE-PORT-TMP")));
            assertThat(node.exec("ipset", "list", "KUBE-CLUSTER-IP")).doesNotContain("udp:53").contains("tcp:80");
            assertThat(node.exec("ipset", "list", "KUBE-NET")).doesNotContain("10.244.0.0/16");
            assertThat(node.exec("ipset", "list", "-n")).doesNotContain("KUBE-NODE-PORT-TMP");
            try {
                ipset.apply(List.of(new IpsetOp.Add("NO-SUCH-SET", new IpsetEntry.Ip(vip)), new IpsetOp.Add("KUBE-IPS", new IpsetEntry.Ip(pod))));
                throw new AssertionError("adding to a missing set was accepted");
            } catch (NetlinkRequestException e) {
                assertThat(e.failures()).hasSize(1);
                assertThat(e.failures().get(0).index()).isZero();
                assertThat(e.failures().get(0).what()).isEqualTo("ADD NO-SUCH-SET 10.96.0.10");
            }
            assertThat(ipset.list("KUBE-IPS").orElseThrow().entries()).hasSize(2);
            System.out.println("ipset ok: " + ipset.listAll().size() + " sets");
        }
    }

    private static void virtualServices(NetNs node, IpvsClient ipvs) throws Exception {
        InetAddress vip = InetAddress.getByName(VIP);
        List<IpvsOp> ops = new ArrayList<>();
        for (IpvsProtocol p : List.of(IpvsProtocol.TCP, IpvsProtocol.UDP)) {
            IpvsService s = IpvsService.of(vip, p, 80, "rr");
            ops.add(new IpvsOp.AddService(s));
            ops.add(new IpvsOp.AddDestination(s, IpvsDestination.masquerade(InetAddress.getByName("10.0.1.11"), 8080, 1)));
            ops.add(new IpvsOp.AddDestination(s, IpvsDestination.masquerade(InetAddress.getByName("10.0.2.12"), 8080, 1)));
        }
        for (IpvsProtocol p : List.of(IpvsProtocol.TCP, IpvsProtocol.UDP)) {
            IpvsService s = IpvsService.of(InetAddress.getByName(VIP6), p, 80, "rr");
            ops.add(new IpvsOp.AddService(s));
            ops.add(new IpvsOp.AddDestination(s, IpvsDestination.masquerade(InetAddress.getByName("fd00:10:1::11"), 8080, 1)));
            ops.add(new IpvsOp.AddDestination(s, IpvsDestination.masquerade(InetAddress.getByName("fd00:10:2::12"), 8080, 1)));
        }
        IpvsService v6 = IpvsService.of(InetAddress.getByName(VIP6), IpvsProtocol.TCP, 443, "wrr").persistent(10800);
        ops.add(new IpvsOp.AddService(v6));
        ops.add(new IpvsOp.AddDestination(v6, IpvsDestination.masquerade(InetAddress.getByName("fd00:10:1::11"), 8443, 3)));
        ipvs.apply(ops);
        ipvs.setTimeouts(new IpvsTimeouts(900, 120, 300));
        assertThat(ipvs.timeouts()).isEqualTo(new IpvsTimeouts(900, 120, 300));

        String ln = node.exec("ipvsadm", "-Ln");
        System.out.println(ln);
        List<String> rows = ln.lines().map(l -> String.join(" ", l.strip().split("\\s+"))).toList();
        assertThat(rows).contains("TCP 10.96.0.10:80 rr", "UDP 10.96.0.10:80 rr", "-> 10.0.1.11:8080 Masq 1 0 0", "-> 10.0.2.12:8080 Masq 1 0 0",
                "TCP [fd00:96::10]:443 wrr persistent 10800", "-> [fd00:10:1::11]:8443 Masq 3 0 0", "UDP [fd00:96::10]:80 rr",
                "-> [fd00:10:2::12]:8080 Masq 1 0 0");
        assertThat(node.exec("ipvsadm", "-L", "--timeout")).contains("Timeout (tcp tcpfin udp): 900 120 300");

        InetAddress vip6 = InetAddress.getByName(VIP6);
        assertThat(ipvs.services()).containsExactlyInAnyOrder(IpvsService.of(vip, IpvsProtocol.TCP, 80, "rr"), IpvsService.of(vip, IpvsProtocol.UDP, 80, "rr"),
                IpvsService.of(vip6, IpvsProtocol.TCP, 80, "rr"), IpvsService.of(vip6, IpvsProtocol.UDP, 80, "rr"), v6);
        assertThat(ipvs.destinations(v6)).containsExactly(IpvsDestination.masquerade(InetAddress.getByName("fd00:10:1::11"), 8443, 3));
        // Refused operations are named; the others are applied (IPVS has no transactions).
        IpvsService missing = IpvsService.of(InetAddress.getByName("10.96.9.9"), IpvsProtocol.TCP, 80, "rr");
        IpvsService badSched = IpvsService.of(InetAddress.getByName("10.96.9.10"), IpvsProtocol.TCP, 80, "nosuch");
        IpvsService ok = IpvsService.of(InetAddress.getByName("10.96.9.11"), IpvsProtocol.TCP, 80, "sh");
        try {
            ipvs.apply(List.of(new IpvsOp.DeleteService(missing), new IpvsOp.AddService(badSched), new IpvsOp.AddService(ok)));
            throw new AssertionError("refusals were not reported");
        } catch (NetlinkRequestException e) {
            assertThat(e.failures()).extracting(NetlinkRequestException.Failure::index).containsExactly(0, 1);
            assertThat(e.failures().get(0).what()).isEqualTo("DEL_SERVICE TCP 10.96.9.9:80");
            assertThat(e.failures().get(1).errno()).isEqualTo(2);
        }
        assertThat(ipvs.services()).contains(ok);
        ipvs.apply(List.of(new IpvsOp.DeleteService(ok)));
        System.out.println("ipvs programming ok");
    }

    /** Ten TCP connections and ten UDP exchanges to the virtual service reach both real servers, unmasqueraded. */
    private static void traffic(Probe probe, String from, String vip, String source) {
        for (String proto : List.of("tcp", "udp")) {
            Set<String> servers = new HashSet<>();
            for (int i = 0; i < 10; i++) {
                Outcome o = proto.equals("tcp") ? probe.tcp(null, vip, 80) : probe.udp(null, 0, vip, 80);
                assertThat(o.kind()).as(from + " " + proto + " " + vip + " probe " + i).isEqualTo(Outcome.Kind.REPLY);
                if (source != null) {
                    assertThat(o.seenSource()).isEqualTo(source);
                }
                servers.add(o.server());
            }
            assertThat(servers).as(from + " " + proto + " backends").containsExactlyInAnyOrder("pod1", "pod2");
            System.out.println("traffic ok: " + from + " " + proto + " " + vip + " reached " + servers);
        }
    }

    /** Weight 0 drains a real server; deleting it and the services leaves the table as it was. */
    private static void changes(NetNs node, IpvsClient ipvs) throws Exception {
        InetAddress vip = InetAddress.getByName(VIP);
        IpvsService tcp = IpvsService.of(vip, IpvsProtocol.TCP, 80, "rr");
        IpvsDestination d2 = IpvsDestination.masquerade(InetAddress.getByName("10.0.2.12"), 8080, 1);
        ipvs.apply(List.of(new IpvsOp.UpdateDestination(tcp, d2.withWeight(0)), new IpvsOp.UpdateService(tcp.withScheduler("mh", IpvsService.SCHED1))));
        assertThat(ipvs.destinations(tcp)).filteredOn(d -> d.address().equals(d2.address())).extracting(IpvsDestination::weight).containsExactly(0);
        assertThat(node.exec("ipvsadm", "-Ln", "-t", VIP + ":80")).contains("mh (mh-fallback)");
        ipvs.apply(List.of(new IpvsOp.DeleteDestination(tcp, d2)));
        assertThat(node.exec("ipvsadm", "-Ln", "-t", VIP + ":80")).doesNotContain("10.0.2.12");
        ipvs.flush();
        assertThat(ipvs.services()).isEmpty();
        System.out.println("ipvs changes ok");
    }
}

package io.kproxy.backend.ipvs;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.ipvs.spi.Destination;
import io.kproxy.backend.ipvs.spi.IpvsKernel;
import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.SetSpec;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.netlink.IpsetClient;
import io.kproxy.netlink.IpsetContents;
import io.kproxy.netlink.IpsetOp;
import io.kproxy.netlink.IpsetType;
import io.kproxy.netlink.IpvsClient;
import io.kproxy.netlink.IpvsDestination;
import io.kproxy.netlink.IpvsOp;
import io.kproxy.netlink.IpvsProtocol;
import io.kproxy.netlink.IpvsService;
import io.kproxy.netlink.IpvsTimeouts;
import io.kproxy.netlink.LinkAddress;
import io.kproxy.netlink.NetlinkRequestException;
import io.kproxy.netlink.RtnlClient;
import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real {@link IpvsKernel} of a network namespace: IPVS over generic netlink
 * ({@link IpvsClient}), the sets over nfnetlink ({@link IpsetClient}), {@code kube-ipvs0} and its
 * addresses over rtnetlink ({@link RtnlClient}), the helper rules through
 * {@code iptables-restore --noflush} ({@link IptablesTool}), sysctls written under
 * {@code /proc/sys} by a thread inside the namespace. Changes to IPVS, the sets and the
 * addresses are held back ({@link HeldChanges}) and sent in request lists at the next read,
 * other operation or {@link #flush()}, and the jumps ensured per family at the flush; the kernel applies each request on its own, so refused
 * ones are thrown as a {@link KernelException} naming them
 * ({@link NetlinkRequestException#failures()}), and the backend's next sync is a full one from
 * the kernel (docs/backends/ipvs.md, "Transactions"). One caller at a time (the engine's sync
 * thread); every method blocks. {@link #close()} closes the sockets.
 */
final class NetlinkIpvsKernel implements IpvsKernel, AutoCloseable {

    /** The generic netlink controller's answer for an unknown family, and IPVS's for an unknown scheduler. */
    private static final int ENOENT = 2;
    /** Upstream's probe virtual server for a scheduler ({@code CanUseIPVSProxier}): {@code 0.0.0.0:20000} TCP. */
    private static final int SCHEDULER_PROBE_PORT = 20000;

    private final Optional<String> netns;
    /** Opened at the first IPVS request that finds the kernel's IPVS family; empty while {@code ip_vs} is not loaded. */
    private Optional<IpvsClient> ipvs;
    private final IpsetClient ipset;
    private final HeldChanges held = new HeldChanges();
    private final Map<IpFamily, List<IptablesTool.Jump>> jumps = new EnumMap<>(IpFamily.class);
    private final RtnlClient rtnl;
    /** Detected at the first use ({@link #iptables()}): a cleanup on a node without ipvs mode never needs it. */
    private IptablesTool iptables;
    private final NetnsThread sysctlThread;

    private NetlinkIpvsKernel(Optional<String> netns, Optional<IpvsClient> ipvs, IpsetClient ipset, RtnlClient rtnl, NetnsThread sysctlThread) {
        this.netns = netns;
        this.ipvs = ipvs;
        this.ipset = ipset;
        this.rtnl = rtnl;
        this.sysctlThread = sysctlThread;
    }

    /**
     * The iptables variant's tool, detected at the first call: the detection runs
     * {@code iptables-nft-save}, which reads the whole nf_tables ruleset, nftables mode's table
     * included (2.4 s of a core at 100,000 Services), and the other modes' cleanup at every start
     * of an nftables-mode agent opens this kernel only to find no ipvs object
     * (docs/backends/ipvs.md, "Cleanup").
     */
    private IptablesTool iptables() {
        if (iptables == null) {
            iptables = IptablesTool.detect(netns);
        }
        return iptables;
    }

    /**
     * Opens the netlink sockets inside {@code netns} (this process's namespace when empty); the
     * iptables variant is detected when first needed. A kernel without IPVS ({@code ip_vs} not loaded: generic
     * netlink has no {@code IPVS} family) holds no virtual server, so listing them answers empty
     * (a {@code --cleanup} on such a node still removes the sets, chains and device), and the
     * first request that must change IPVS fails naming the reason. Blocks.
     */
    static NetlinkIpvsKernel open(Optional<String> netns) throws KernelException {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            Optional<IpvsClient> v = openIpvs(netns);
            v.ifPresent(opened::add);
            IpsetClient s = track(opened, IpsetClient.open(netns));
            RtnlClient r = track(opened, RtnlClient.open(netns));
            NetnsThread t = track(opened, netns.isPresent() ? NetnsThread.enter(netns.get(), "ipvs-sysctl") : NetnsThread.current("ipvs-sysctl"));
            return new NetlinkIpvsKernel(netns, v, s, r, t);
        } catch (NetlinkRequestException | RuntimeException e) {
            for (AutoCloseable c : opened.reversed()) {
                try {
                    c.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (e instanceof NetlinkRequestException n) {
                throw new KernelException(KernelException.Kind.FATAL, "cannot open the IPVS, ipset and rtnetlink sockets"
                        + netns.map(n1 -> " in netns " + n1).orElse("") + " (is ip_vs loaded?): " + n.getMessage(), 0, null, n);
            }
            throw (RuntimeException) e;
        }
    }

    /**
     * What ipvs mode needs and this kernel lacks, as upstream's {@code CanUseIPVSProxier} checks
     * before it starts (pkg/proxy/ipvs/proxier.go, called from cmd/kube-proxy/app/server_linux.go):
     * IPVS (the generic netlink family {@code IPVS}, which asking for it loads {@code ip_vs} when
     * the kernel can) and ipset (a header request answers ENOENT for a missing set when the
     * subsystem is there). Empty when nothing is missing. Blocks.
     */
    Optional<String> missingForIpvsMode() {
        try {
            if (ipvs.isEmpty()) {
                ipvs = openIpvs(netns);
            }
        } catch (NetlinkRequestException e) {
            return Optional.of("IPVS cannot be asked for (" + e.getMessage() + ")");
        }
        if (ipvs.isEmpty()) {
            return Optional.of("the kernel has no IPVS: the generic netlink family IPVS is missing, so the module ip_vs is neither loaded nor "
                    + "loadable (a kernel built without CONFIG_IP_VS)");
        }
        try {
            ipset.exists(IpSets.CLUSTER_IP.name(IpFamily.IPV4));
        } catch (NetlinkRequestException e) {
            return Optional.of("the kernel has no ipset (" + e.getMessage() + "): the module ip_set is neither loaded nor loadable");
        }
        return Optional.empty();
    }

    /** The IPVS client, or empty when the kernel has no IPVS family (ENOENT from the generic netlink controller). */
    private static Optional<IpvsClient> openIpvs(Optional<String> netns) throws NetlinkRequestException {
        try {
            return Optional.of(IpvsClient.open(netns));
        } catch (NetlinkRequestException e) {
            if (e.errno() == ENOENT) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The IPVS client for a request that changes IPVS; fails (fatal) while the kernel has no IPVS. */
    private IpvsClient ipvs() throws KernelException {
        if (ipvs.isEmpty()) {
            ipvs = call(() -> openIpvs(netns));
        }
        return ipvs.orElseThrow(() -> new KernelException(KernelException.Kind.FATAL,
                "the kernel has no IPVS (generic netlink family IPVS not found: is the ip_vs module loaded?)"));
    }

    private static <T extends AutoCloseable> T track(List<AutoCloseable> opened, T c) {
        opened.add(c);
        return c;
    }

    @Override
    public List<VirtualServer> virtualServers() throws KernelException {
        List<VirtualServer> out = new ArrayList<>();
        if (ipvs.isEmpty()) {
            ipvs = call(() -> openIpvs(netns));
        }
        if (ipvs.isEmpty()) {
            return List.of();
        }
        IpvsClient client = ipvs.get();
        for (IpvsService s : call(client::services)) {
            NetlinkMapping.virtualServer(s).ifPresent(out::add);
        }
        return out;
    }

    @Override
    public void addVirtualServer(VirtualServer vs) throws KernelException {
        hold(new IpvsOp.AddService(NetlinkMapping.service(vs)));
    }

    @Override
    public void updateVirtualServer(VirtualServer vs) throws KernelException {
        hold(new IpvsOp.UpdateService(NetlinkMapping.service(vs)));
    }

    @Override
    public void deleteVirtualServer(VsKey key) throws KernelException {
        hold(new IpvsOp.DeleteService(NetlinkMapping.service(key)));
    }

    @Override
    public List<Destination> realServers(VsKey vs) throws KernelException {
        IpvsClient client = ipvs();
        return call(() -> client.destinations(NetlinkMapping.service(vs))).stream().map(NetlinkMapping::destination).toList();
    }

    @Override
    public void addRealServer(VsKey vs, RealServer rs) throws KernelException {
        hold(new IpvsOp.AddDestination(NetlinkMapping.service(vs), NetlinkMapping.destination(rs)));
    }

    @Override
    public void updateRealServer(VsKey vs, RealServer rs) throws KernelException {
        hold(new IpvsOp.UpdateDestination(NetlinkMapping.service(vs), NetlinkMapping.destination(rs)));
    }

    @Override
    public void deleteRealServer(VsKey vs, IpAddress address, int port) throws KernelException {
        IpvsDestination d = IpvsDestination.masquerade(NetlinkMapping.inet(address), port, 0);
        hold(new IpvsOp.DeleteDestination(NetlinkMapping.service(vs), d));
    }

    /**
     * As upstream's {@code CanUseIPVSProxier} (pkg/proxy/ipvs/proxier.go): true when a virtual
     * server already uses the scheduler; otherwise a probe virtual server {@code 0.0.0.0:20000}
     * TCP with it is added (the kernel loads {@code ip_vs_<name>} if it can) and deleted again.
     * The kernel answers ENOENT when it has no such scheduler. Blocks; fails when the kernel has
     * no IPVS.
     */
    @Override
    public boolean hasScheduler(String name) throws KernelException {
        IpvsClient client = ipvs();
        if (call(client::services).stream().anyMatch(s -> s.scheduler().equals(name))) {
            return true;
        }
        IpvsService probe = IpvsService.of(NetlinkMapping.inet(IpAddress.parse("0.0.0.0")), IpvsProtocol.TCP, SCHEDULER_PROBE_PORT, name);
        try {
            client.apply(List.of(new IpvsOp.AddService(probe)));
        } catch (NetlinkRequestException e) {
            if (e.errno() == ENOENT) {
                return false;
            }
            throw refused(e);
        }
        run(() -> client.apply(List.of(new IpvsOp.DeleteService(probe))));
        return true;
    }

    @Override
    public void setTimeouts(Duration tcp, Duration tcpFin, Duration udp) throws KernelException {
        IpvsTimeouts t = new IpvsTimeouts((int) tcp.toSeconds(), (int) tcpFin.toSeconds(), (int) udp.toSeconds());
        runIpvs(c -> c.setTimeouts(t));
    }

    @Override
    public List<String> sets() throws KernelException {
        return call(ipset::listAll).stream().map(IpsetContents::name).toList();
    }

    /** {@code IPSET_CMD_HEADER}: one short answer, whatever the set holds ({@link IpsetClient#exists}). */
    @Override
    public boolean setExists(String name) throws KernelException {
        return call(() -> ipset.exists(name));
    }

    @Override
    public void createSet(SetSpec set) throws KernelException {
        held.add(new HeldChanges.Ipset(new IpsetOp.Create(NetlinkMapping.set(set))));
    }

    @Override
    public void destroySet(String name) throws KernelException {
        held.add(new HeldChanges.Ipset(new IpsetOp.Destroy(name)));
    }

    @Override
    public List<String> setEntries(String name) throws KernelException {
        return call(() -> ipset.list(name)).map(c -> c.entries().stream().map(NetlinkMapping::text).toList()).orElse(List.of());
    }

    @Override
    public void addSetEntry(String set, String entry) throws KernelException {
        IpsetType t = ownType(set);
        held.add(new HeldChanges.Ipset(new IpsetOp.Add(set, NetlinkMapping.entry(t, entry))));
    }

    @Override
    public void deleteSetEntry(String set, String entry) throws KernelException {
        IpsetType t = ownType(set);
        held.add(new HeldChanges.Ipset(new IpsetOp.Delete(set, NetlinkMapping.entry(t, entry))));
    }

    private static IpsetType ownType(String set) throws KernelException {
        return NetlinkMapping.typeOf(set).orElseThrow(() -> new KernelException(KernelException.Kind.FATAL, "not a set of ipvs mode: " + set));
    }

    @Override
    public boolean linkExists(String name) throws KernelException {
        return call(() -> rtnl.linkIndex(name)).isPresent();
    }

    @Override
    public void ensureDummyLink(String name) throws KernelException {
        run(() -> rtnl.ensureDummy(name));
    }

    @Override
    public void deleteLink(String name) throws KernelException {
        run(() -> rtnl.deleteLink(name));
    }

    /** The link's addresses but the IPv6 link-local one the kernel adds itself (kproxy never binds it). */
    @Override
    public List<IpAddress> addresses(String link) throws KernelException {
        if (!linkExists(link)) {
            return List.of();
        }
        return call(() -> rtnl.addresses(link)).stream().map(LinkAddress::address).filter(a -> !NetlinkMapping.linkLocal(a))
                .map(NetlinkMapping::ip).toList();
    }

    /**
     * One address dump of every link but {@code except} ({@link RtnlClient#addressesExcept}), IPv6
     * link-local and loopback addresses left out as upstream's {@code isValidForSet}
     * (pkg/proxy/ipvs/util/netlink_linux.go; an IPv4 169.254/16 address stays).
     */
    @Override
    public Optional<List<IpAddress>> localAddresses(String except) throws KernelException {
        return Optional.of(call(() -> rtnl.addressesExcept(except)).stream().map(LinkAddress::address)
                .filter(a -> !(a instanceof Inet6Address && a.isLinkLocalAddress()) && !a.isLoopbackAddress()).map(NetlinkMapping::ip).distinct().toList());
    }

    @Override
    public void addAddress(String link, IpAddress address) throws KernelException {
        held.add(new HeldChanges.Address(true, link, LinkAddress.host(NetlinkMapping.inet(address))));
    }

    @Override
    public void deleteAddress(String link, IpAddress address) throws KernelException {
        held.add(new HeldChanges.Address(false, link, LinkAddress.host(NetlinkMapping.inet(address))));
    }

    @Override
    public void iptablesRestore(IpFamily family, String text) throws KernelException {
        flush();
        iptables().restore(family, text);
    }

    /** Held back and ensured per family together at the next flush ({@link IptablesTool#ensureJumps}). */
    @Override
    public void ensureJump(IpFamily family, String table, String chain, String comment, String target) throws KernelException {
        jumps.computeIfAbsent(family, f -> new ArrayList<>()).add(new IptablesTool.Jump(table, chain, comment, target));
    }

    @Override
    public void deleteJump(IpFamily family, String table, String chain, String comment, String target) throws KernelException {
        flush();
        iptables().deleteJump(family, table, chain, comment, target);
    }

    /** {@code /proc/sys/<name>} written by a thread inside the namespace: net sysctls belong to the opener's namespace. */
    @Override
    public void setSysctl(String name, int value) throws KernelException {
        if (!name.matches("[a-z0-9_]+(/[a-z0-9_]+)+")) {
            throw new KernelException(KernelException.Kind.FATAL, "not a sysctl name: " + name);
        }
        flush();
        try {
            sysctlThread.call(() -> {
                try {
                    Files.writeString(Path.of("/proc/sys", name), Integer.toString(value));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return null;
            });
        } catch (RuntimeException e) {
            throw new KernelException(KernelException.Kind.FATAL, "sysctl " + name + "=" + value + ": " + e.getMessage(), 0, null, e);
        }
    }

    /** Closes the sockets; changes still held are dropped (the applier flushes before it returns). */
    @Override
    public void close() {
        sysctlThread.close();
        rtnl.close();
        ipset.close();
        ipvs.ifPresent(IpvsClient::close);
    }

    private interface Request<T> {
        T call() throws NetlinkRequestException;
    }

    private interface Action {
        void run() throws NetlinkRequestException;
    }

    private interface IpvsAction {
        void run(IpvsClient client) throws NetlinkRequestException;
    }

    /** Holds an IPVS change back until the next flush; fails at once while the kernel has no IPVS. */
    private void hold(IpvsOp op) throws KernelException {
        ipvs();
        held.add(new HeldChanges.Ipvs(op));
    }

    /** Sends the held IPVS, ipset and address changes (upstream's order kept, one request list per run of one kind). */
    @Override
    public void flush() throws KernelException {
        if (!held.isEmpty()) {
            try {
                held.flush(ipvs.orElse(null), ipset, rtnl);
            } catch (NetlinkRequestException e) {
                throw refused(e);
            }
        }
        for (IpFamily f : IpFamily.values()) {
            List<IptablesTool.Jump> due = jumps.remove(f);
            if (due != null) {
                iptables().ensureJumps(f, due);
            }
        }
    }

    private void runIpvs(IpvsAction a) throws KernelException {
        IpvsClient client = ipvs();
        run(() -> a.run(client));
    }

    /** Sends the held changes, then the request: a read sees every change made before it. */
    private <T> T call(Request<T> r) throws KernelException {
        flush();
        try {
            return r.call();
        } catch (NetlinkRequestException e) {
            throw refused(e);
        }
    }

    private void run(Action a) throws KernelException {
        flush();
        try {
            a.run();
        } catch (NetlinkRequestException e) {
            throw refused(e);
        }
    }

    /** Every refused request named (the rest were applied); retryable when the kernel was only busy or short of memory. */
    static KernelException refused(NetlinkRequestException e) {
        return new KernelException(e.retryable() ? KernelException.Kind.RETRYABLE : KernelException.Kind.FATAL,
                String.join("; ", e.failures().stream().map(Object::toString).toList()), 0, null, e);
    }
}

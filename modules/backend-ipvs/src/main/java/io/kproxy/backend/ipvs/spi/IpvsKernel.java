package io.kproxy.backend.ipvs.spi;

import io.kproxy.backend.KernelException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The kernel as the ipvs mode sees it: IPVS services and destinations (generic netlink), ipsets
 * (nfnetlink), the dummy link and its addresses (rtnetlink), the iptables helper rules
 * ({@code iptables-restore --noflush}) and a few sysctls. Every method blocks until the kernel
 * answered and throws {@link KernelException} (retryable unless the kernel refused the request
 * itself); one caller at a time. Strict like the kernel: adding what exists or deleting what does
 * not is an error, except where a method says otherwise. No argument may be null.
 *
 * <p>{@link MemoryIpvsKernel} is the in-memory fake; the adapter to {@code io.kproxy.netlink}'s
 * clients implements it for a real namespace.
 */
public interface IpvsKernel {

    /** Every virtual server of both families. */
    List<VirtualServer> virtualServers() throws KernelException;

    void addVirtualServer(VirtualServer vs) throws KernelException;

    /** Changes scheduler, flags and timeout of an existing virtual server. */
    void updateVirtualServer(VirtualServer vs) throws KernelException;

    /** Deletes a virtual server with its destinations. */
    void deleteVirtualServer(VsKey key) throws KernelException;

    /** The destinations of a virtual server with their connection counts. */
    List<Destination> realServers(VsKey vs) throws KernelException;

    void addRealServer(VsKey vs, RealServer rs) throws KernelException;

    /** Changes the weight (and forwarding) of an existing destination. */
    void updateRealServer(VsKey vs, RealServer rs) throws KernelException;

    void deleteRealServer(VsKey vs, IpAddress address, int port) throws KernelException;

    /**
     * Whether a virtual server can use the scheduler {@code name} (its module {@code ip_vs_<name>}
     * is loaded or loadable). The default answers true: a fake that is not told otherwise has every
     * scheduler.
     */
    default boolean hasScheduler(String name) throws KernelException {
        return true;
    }

    /** {@code ipvsadm --set tcp tcpfin udp}; a zero keeps the kernel's value. */
    void setTimeouts(Duration tcp, Duration tcpFin, Duration udp) throws KernelException;

    /** The names of every ipset. */
    List<String> sets() throws KernelException;

    /** Whether the named set exists, without reading its members (the default lists the names). */
    default boolean setExists(String name) throws KernelException {
        return sets().contains(name);
    }

    /** Creates the set unless one of that name exists ({@code ipset create -exist}). */
    void createSet(SetSpec set) throws KernelException;

    void destroySet(String name) throws KernelException;

    /** The members of a set, in {@code ipset save}'s spelling ({@code 10.0.0.1,tcp:80}). */
    List<String> setEntries(String name) throws KernelException;

    void addSetEntry(String set, String entry) throws KernelException;

    void deleteSetEntry(String set, String entry) throws KernelException;

    boolean linkExists(String name) throws KernelException;

    /** Creates the dummy link unless it exists, and sets it up. */
    void ensureDummyLink(String name) throws KernelException;

    /** Deletes the link (and its addresses) if it exists. */
    void deleteLink(String name) throws KernelException;

    /** The addresses on the link; empty when it does not exist. */
    List<IpAddress> addresses(String link) throws KernelException;

    /**
     * Every local address of the node but those on link {@code except}, IPv6 link-local and
     * loopback addresses left out (upstream's {@code GetAllLocalAddressesExcept},
     * pkg/proxy/ipvs/util/netlink_linux.go): where ipvs mode creates NodePort virtual servers.
     * Empty when this kernel cannot tell (the default; the fake unless told), and the render then
     * uses the Node object's addresses.
     */
    default Optional<List<IpAddress>> localAddresses(String except) throws KernelException {
        return Optional.empty();
    }

    /** Adds {@code address/32} ({@code /128} for IPv6) to the link. */
    void addAddress(String link, IpAddress address) throws KernelException;

    void deleteAddress(String link, IpAddress address) throws KernelException;

    /** {@code iptables-restore --noflush} (or {@code ip6tables-restore}) of {@code text}, atomically per table. */
    void iptablesRestore(IpFamily family, String text) throws KernelException;

    /** Inserts {@code -A <chain> -m comment --comment <comment> -j <target>} first in a built-in chain unless present. */
    void ensureJump(IpFamily family, String table, String chain, String comment, String target) throws KernelException;

    /** Deletes that jump if present. */
    void deleteJump(IpFamily family, String table, String chain, String comment, String target) throws KernelException;

    /** Writes a sysctl ({@code net/ipv4/vs/conntrack} spelling). */
    void setSysctl(String name, int value) throws KernelException;

    /**
     * Sends the changes held back, in the order they were made; throws naming the refused ones
     * (the others were applied). Nothing to do for an implementation that holds nothing back.
     */
    default void flush() throws KernelException {
    }
}

/**
 * Native doors to the kernel, with no policy: an nf_tables netlink writer
 * ({@link io.kproxy.netlink.NfTablesClient}: batches of typed operations and expressions on a
 * raw {@code NETLINK_NETFILTER} socket through the JDK's foreign-function API), libnftables
 * through jnr-ffi (in-process), both on an {@link io.kproxy.netns.NetnsThread} that may have
 * entered another network namespace, and the {@code nft -f -} and {@code conntrack} command
 * fallbacks; and, on the same raw sockets, IPVS over generic netlink
 * ({@link io.kproxy.netlink.IpvsClient}), ipset over nfnetlink ({@link io.kproxy.netlink.IpsetClient})
 * and links and addresses over rtnetlink ({@link io.kproxy.netlink.RtnlClient}). README.md has
 * the layouts and why those requests are not atomic.
 *
 * <p>The package is exported unqualified because jnr-ffi generates the implementations of the
 * {@code Lib*} interfaces in its own (unnamed) module, which must be able to see them.
 * Launch with {@code --enable-native-access=io.kproxy.netlink,io.kproxy.netns,org.jnrproject.jffi}.
 */
module io.kproxy.netlink {
    requires transitive org.jnrproject.ffi;
    requires io.kproxy.netns;
    requires org.slf4j;

    exports io.kproxy.netlink;
}

/**
 * Native doors to the kernel, with no policy: libnftables through jnr-ffi (in-process, on a
 * dedicated thread that may have entered another network namespace with {@code setns(2)}), the
 * {@code nft -f -} and {@code conntrack} command fallbacks.
 *
 * <p>The package is exported unqualified because jnr-ffi generates the implementations of the
 * {@code Lib*} interfaces in its own (unnamed) module, which must be able to see them.
 * Launch with {@code --enable-native-access=io.kproxy.netlink,org.jnrproject.jffi}.
 */
module io.kproxy.netlink {
    requires transitive org.jnrproject.ffi;
    requires org.slf4j;

    exports io.kproxy.netlink;
}

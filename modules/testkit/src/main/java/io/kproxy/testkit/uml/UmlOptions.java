package io.kproxy.testkit.uml;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How to boot one User-Mode Linux guest.
 *
 * @param memoryMegabytes the guest's memory ({@code mem=}); JDK 25 inside wants 1024 or more
 * @param timeout the whole run's bound, boot and shutdown included; the runner kills UML after it
 * @param modules kernel modules loaded with {@code modprobe -d} before the command (with their dependencies)
 * @param env environment variables for the command (names are shell identifiers)
 */
public record UmlOptions(int memoryMegabytes, Duration timeout, List<String> modules, Map<String, String> env) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern MODULE = Pattern.compile("[A-Za-z0-9_-]+");

    /**
     * What kube-proxy's ipvs mode needs, and iptables-legacy beside it: IPVS and its schedulers,
     * ipset and the set types upstream creates, the iptables matches its rules use
     * ({@code xt_set}, {@code xt_ipvs}, …), conntrack, and the dummy, veth and bridge devices the
     * tests build their topology from.
     */
    public static final List<String> IPVS_MODULES = List.of(
            "ip_vs", "ip_vs_rr", "ip_vs_wrr", "ip_vs_lc", "ip_vs_wlc", "ip_vs_lblc", "ip_vs_lblcr", "ip_vs_sh", "ip_vs_dh",
            "ip_vs_sed", "ip_vs_nq", "ip_vs_mh",
            "ip_set", "ip_set_hash_ip", "ip_set_hash_ipport", "ip_set_hash_ipportip", "ip_set_hash_ipportnet", "ip_set_hash_net",
            "ip_set_bitmap_port",
            "nf_conntrack", "nf_conntrack_netlink", "nf_nat", "x_tables", "ip_tables", "ip6_tables", "iptable_nat", "iptable_filter",
            "ip6table_nat", "ip6table_filter", "xt_set", "xt_ipvs", "xt_MASQUERADE", "xt_mark", "xt_comment", "xt_addrtype",
            "xt_conntrack", "xt_multiport", "xt_tcpudp", "xt_statistic", "xt_recent", "xt_sctp", "ipt_REJECT", "ip6t_REJECT",
            "dummy", "veth", "bridge", "br_netfilter");

    public UmlOptions {
        if (memoryMegabytes < 128) {
            throw new IllegalArgumentException("a guest needs at least 128 MB, not " + memoryMegabytes);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero() || timeout.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("timeout must be in (0, 1h]: " + timeout);
        }
        modules = List.copyOf(modules);
        for (String m : modules) {
            if (!MODULE.matcher(m).matches()) {
                throw new IllegalArgumentException("not a module name: " + m);
            }
        }
        env = Map.copyOf(env);
        for (String k : env.keySet()) {
            if (!NAME.matcher(k).matches()) {
                throw new IllegalArgumentException("not an environment variable name: " + k);
            }
        }
    }

    /** 1024 MB, the ipvs-mode modules, no extra environment, bounded by {@code timeout}. */
    public static UmlOptions ipvs(Duration timeout) {
        return new UmlOptions(1024, timeout, IPVS_MODULES, Map.of());
    }

    public UmlOptions withMemory(int megabytes) {
        return new UmlOptions(megabytes, timeout, modules, env);
    }

    public UmlOptions withEnv(Map<String, String> more) {
        Map<String, String> all = new HashMap<>(env);
        all.putAll(more);
        return new UmlOptions(memoryMegabytes, timeout, modules, all);
    }
}

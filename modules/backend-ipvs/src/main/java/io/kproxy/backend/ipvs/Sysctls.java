package io.kproxy.backend.ipvs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sysctls upstream's ipvs {@code NewProxier} ensures ({@code pkg/proxy/ipvs/proxier.go}):
 * IPVS connection tracking (so that the helper rules see IPVS traffic), expiring connections to
 * deleted destinations and quiescent persistence templates (graceful termination relies on both),
 * IP forwarding, and with {@code strictARP} the ARP settings that keep {@code kube-ipvs0}'s
 * addresses from being announced. {@code conn_reuse_mode} depends on the kernel version and is
 * left to the kernel adapter. Stateless.
 */
final class Sysctls {

    private Sysctls() {
    }

    /** Name (slash form, as upstream spells them) to value, in upstream's order. */
    static Map<String, Integer> wanted(IpvsSettings settings) {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("net/ipv4/vs/conntrack", 1);
        m.put("net/ipv4/vs/expire_nodest_conn", 1);
        m.put("net/ipv4/vs/expire_quiescent_template", 1);
        m.put("net/ipv4/ip_forward", 1);
        if (settings.strictARP()) {
            m.put("net/ipv4/conf/all/arp_ignore", 1);
            m.put("net/ipv4/conf/all/arp_announce", 2);
        }
        return m;
    }
}

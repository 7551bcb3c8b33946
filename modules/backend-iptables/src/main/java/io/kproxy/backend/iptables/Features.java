package io.kproxy.backend.iptables;

/**
 * What the node's iptables and kernel offer, probed once when a backend is created (upstream's
 * {@code Proxier} fields that are "effectively const": {@code iptables.HasRandomFully()},
 * {@code nfAcctCounters}, {@code conntrackTCPLiberal}). They change rule text, so a backend
 * renders with the features it was created with. Immutable.
 *
 * @param randomFully   {@code MASQUERADE --random-fully} is supported (iptables 1.6.2 and later)
 * @param nfacct        the nfacct counters {@code ct_state_invalid_dropped_pkts} and
 *                      {@code localhost_nps_accepted_pkts} exist, so rules may count into them
 * @param tcpBeLiberal  {@code net.netfilter.nf_conntrack_tcp_be_liberal} is set: no DROP rule for
 *                      INVALID packets in {@code KUBE-FORWARD}
 */
record Features(boolean randomFully, boolean nfacct, boolean tcpBeLiberal) {

    /**
     * What a modern node has when nothing was probed (offline render, tests through a fake
     * port): iptables newer than 1.6.2, no nfacct counters (kproxy does not create them; see
     * docs/backends/iptables.md), conntrack strict.
     */
    static final Features DEFAULT = new Features(true, false, false);

    /** Upstream's fake proxier in {@code proxier_test.go}: the features its expected dumps assume. */
    static final Features UPSTREAM_TEST = new Features(false, true, false);
}

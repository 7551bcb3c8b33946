package io.kproxy.backend.iptables;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Small pieces of upstream's rule text. Pure and thread-safe.
 */
final class Words {

    static final String KUBE_SERVICES = "KUBE-SERVICES";
    static final String KUBE_EXTERNAL_SERVICES = "KUBE-EXTERNAL-SERVICES";
    static final String KUBE_NODEPORTS = "KUBE-NODEPORTS";
    static final String KUBE_POSTROUTING = "KUBE-POSTROUTING";
    static final String KUBE_MARK_MASQ = "KUBE-MARK-MASQ";
    static final String KUBE_FORWARD = "KUBE-FORWARD";
    static final String KUBE_PROXY_FIREWALL = "KUBE-PROXY-FIREWALL";
    static final String KUBE_PROXY_CANARY = "KUBE-PROXY-CANARY";
    /** kubelet's chain, duplicated by kube-proxy; never deleted by us. */
    static final String KUBE_FIREWALL = "KUBE-FIREWALL";

    static final String NFACCT_INVALID = "ct_state_invalid_dropped_pkts";
    static final String NFACCT_LOCALHOST = "localhost_nps_accepted_pkts";

    /** Upstream's {@code largeClusterEndpointsThreshold}. */
    static final int LARGE_CLUSTER_ENDPOINTS = 1000;

    private Words() {
    }

    /** {@code :CHAIN - [0:0]}: upstream's {@code MakeChainLine}; with --noflush it creates or flushes the chain. */
    static String chainLine(String chain) {
        return ":" + chain + " - [0:0]";
    }

    /** Go's {@code fmt.Sprintf("%#08x", 1<<bit)} as {@code NewProxier} formats the masquerade mark: {@code 0x00004000}. */
    static String mark(int bit) {
        return "0x" + String.format("%08x", 1L << bit);
    }

    /**
     * Go's {@code fmt.Sprintf("%0.10f", 1.0/float64(n))} ({@code computeProbability}): the exact
     * binary value of the double, rounded half to even at ten decimals.
     */
    static String probability(int n) {
        return new BigDecimal(1.0 / n).setScale(10, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** Is this one of the per-service chains upstream deletes when stale ({@code isServiceChainName})? */
    static boolean isServiceChain(String chain) {
        return chain.startsWith("KUBE-SVC-") || chain.startsWith("KUBE-SVL-") || chain.startsWith("KUBE-SEP-") || chain.startsWith("KUBE-FW-")
                || chain.startsWith("KUBE-EXT-");
    }
}

package io.kproxy.backend;

import io.kproxy.state.ServicePortState;

/**
 * Which of a service port's policy chains exist and where its traffic goes, decided the same way
 * in every backend: the block at the top of upstream's per-service loop in
 * {@code syncProxyRules} ({@code pkg/proxy/iptables/proxier.go} and
 * {@code pkg/proxy/nftables/proxier.go} share it word for word: {@code usesClusterPolicyChain},
 * {@code usesLocalPolicyChain}, {@code internalPolicyChain}, {@code hasInternalEndpoints},
 * {@code externalPolicyChain}, {@code hasExternalEndpoints}, {@code usesExternalChain}). The
 * chains' names are the backend's; this record only picks between them. Immutable, pure and
 * thread-safe.
 *
 * @param usesClusterChain  the cluster-policy chain has endpoints and some traffic uses it
 * @param usesLocalChain    the local-policy chain has endpoints and some traffic uses it
 * @param internalLocal     internal traffic goes to the local-policy chain
 * @param hasInternal       internal traffic has somewhere to go (else DROP, or REJECT when the
 *                          port has no endpoints at all)
 * @param externalLocal     external traffic goes to the local-policy chain
 * @param hasExternal       external traffic has somewhere to go
 * @param usesExternalChain the port is externally accessible and has endpoints
 */
public record PolicyChains(boolean usesClusterChain, boolean usesLocalChain, boolean internalLocal, boolean hasInternal,
        boolean externalLocal, boolean hasExternal, boolean usesExternalChain) {

    /** The decisions for {@code s}; {@code s} must not be null. */
    public static PolicyChains of(ServicePortState s) {
        boolean hasEndpoints = s.hasEndpoints();
        boolean noLocal = s.localEndpoints().isEmpty();
        return new PolicyChains(!s.clusterEndpoints().isEmpty() && s.usesClusterEndpoints(), !noLocal && s.usesLocalEndpoints(),
                s.internalPolicyLocal(), hasEndpoints && !(s.internalPolicyLocal() && noLocal), s.externalPolicyLocal(),
                hasEndpoints && !(s.externalPolicyLocal() && noLocal), hasEndpoints && s.externallyAccessible());
    }

    /** The chain internal traffic jumps to: {@code localChain} or {@code clusterChain}. */
    public String internalChain(String clusterChain, String localChain) {
        return internalLocal ? localChain : clusterChain;
    }

    /** The chain the external chain jumps to: {@code localChain} or {@code clusterChain}. */
    public String externalPolicyChain(String clusterChain, String localChain) {
        return externalLocal ? localChain : clusterChain;
    }
}

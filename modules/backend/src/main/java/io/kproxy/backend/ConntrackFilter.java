package io.kproxy.backend;

import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import java.util.Optional;
import java.util.Set;

/**
 * One stale-flow deletion of upstream's {@code CleanStaleEntries}
 * ({@code pkg/proxy/conntrack/cleanup.go}): delete the flows of {@code protocol} whose original
 * destination is {@code originalDestination} (any address when empty) and port
 * {@code originalPort}, unless their reply source is one of {@code keepReplySources} (the
 * service port's serving endpoints). Immutable.
 *
 * @param family              the family of the flows
 * @param protocol            the protocol (UDP in practice)
 * @param originalDestination the service IP (ClusterIP, external or LB IP); empty for a NodePort
 * @param originalPort        the service port, or the NodePort
 * @param keepReplySources    serving endpoint IPs whose flows stay
 */
public record ConntrackFilter(IpFamily family, Protocol protocol, Optional<IpAddress> originalDestination, int originalPort,
        Set<IpAddress> keepReplySources) {

    public ConntrackFilter {
        if (family == null || protocol == null || originalDestination == null) {
            throw new IllegalArgumentException("family, protocol and originalDestination are required");
        }
        if (originalPort < 1 || originalPort > 65535) {
            throw new IllegalArgumentException("originalPort must be 1..65535");
        }
        keepReplySources = Set.copyOf(keepReplySources);
    }

    /** True when a flow with this original destination, port and reply source must be deleted. */
    public boolean matches(IpAddress origDst, int origPort, IpAddress replySrc) {
        return origPort == originalPort && originalDestination.map(origDst::equals).orElse(origDst.family() == family)
                && !keepReplySources.contains(replySrc);
    }
}

package io.kproxy.state;

import io.kproxy.model.Cidr;
import java.util.List;

/**
 * How a backend tells pod traffic from other traffic for one family (upstream's
 * {@code LocalTrafficDetector}, {@code pkg/proxy/util/localdetector.go}), resolved from
 * {@code detectLocalMode} and the node.
 */
public sealed interface LocalDetector {

    /** No detector: ClusterIP traffic is never masqueraded, ETP-Local has no pod short-circuit. */
    record None() implements LocalDetector {
    }

    /** Source inside one of these CIDRs is local ({@code ClusterCIDR} and {@code NodeCIDR} modes). */
    record Cidrs(List<Cidr> cidrs) implements LocalDetector {
        public Cidrs {
            cidrs = List.copyOf(cidrs);
            if (cidrs.isEmpty()) {
                throw new IllegalArgumentException("a CIDR detector needs at least one CIDR; use None");
            }
        }
    }

    /** Traffic entering through this bridge is local ({@code BridgeInterface}). */
    record BridgeInterface(String name) implements LocalDetector {
    }

    /** Traffic entering through an interface with this name prefix is local ({@code InterfaceNamePrefix}). */
    record InterfacePrefix(String prefix) implements LocalDetector {
    }
}

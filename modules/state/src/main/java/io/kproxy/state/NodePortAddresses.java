package io.kproxy.state;

import io.kproxy.model.Cidr;
import java.util.List;

/**
 * Which local addresses accept NodePorts for one family (upstream's {@code NodePortAddresses},
 * {@code pkg/proxy/util/nodeport_addresses.go}), with the {@code primary} keyword already
 * resolved to the node's primary IP as a single-address CIDR.
 */
public sealed interface NodePortAddresses {

    /** Every local address (no CIDR of this family was configured, or a zero CIDR was). */
    record MatchAll() implements NodePortAddresses {
    }

    /** Local addresses inside these CIDRs. */
    record Cidrs(List<Cidr> cidrs) implements NodePortAddresses {
        public Cidrs {
            cidrs = List.copyOf(cidrs);
        }
    }
}

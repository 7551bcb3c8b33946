package io.kproxy.backend.ipvs;

import io.kproxy.backend.RulesetHash;
import io.kproxy.backend.Skipped;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import java.util.List;
import java.util.Optional;

/**
 * What one service port contributes to one family's ipvs state: its virtual servers with their
 * real servers, its ipset members, the {@code KUBE-IPVS-OUT-FILTER} rules of its load-balancer
 * IPs whose source ranges leave the node out, or the reason it was skipped (bad input, which then
 * contributes nothing at all). Immutable; the text and digest are computed once.
 *
 * @param name      the service port
 * @param services  its virtual servers (empty when skipped)
 * @param entries   its ipset members (empty when skipped)
 * @param outFilter its {@code KUBE-IPVS-OUT-FILTER} rules
 * @param skipped   why it was skipped, when it was (its reason is the block's {@code # skipped:} comment)
 * @param text      its block of the ruleset text ({@link PartText})
 */
record PortPart(ServicePortName name, List<VsEntry> services, List<SetEntry> entries, List<String> outFilter, Optional<Skipped> skipped,
        String text, RulesetHash.Digest digest) {

    PortPart {
        if (name == null || skipped == null || text == null || digest == null) {
            throw new IllegalArgumentException("name, skipped, text and digest are required");
        }
        services = List.copyOf(services);
        entries = List.copyOf(entries);
        outFilter = List.copyOf(outFilter);
    }

    static PortPart of(ServicePortName name, List<VsEntry> services, List<SetEntry> entries, List<String> outFilter, Optional<Skipped> skipped,
            IpFamily family) {
        String text = PartText.block(name, family, services, entries, skipped.map(Skipped::reason));
        return new PortPart(name, services, entries, outFilter, skipped, text, RulesetHash.digest(text));
    }
}

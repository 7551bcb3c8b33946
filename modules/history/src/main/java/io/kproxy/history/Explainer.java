package io.kproxy.history;

import io.kproxy.events.Envelope;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.ClusterState;
import io.kproxy.state.FoldedState;
import io.kproxy.state.Origin;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * {@code render --explain}: the ruleset with, before each Service's first line in each section
 * (nftables family, iptables family and table), comment lines naming the records its rules came
 * from: the Service's and each of its EndpointSlices' (offset, time, event type,
 * resourceVersion); a header naming the point, the configuration and the Node; and at the end
 * the Services that got no rules and why. Comments only, so the output still loads with
 * {@code nft -f} / {@code iptables-restore}: every value from a record goes through
 * {@link Printed#comment}, so no value can end a comment line. Pure but for reading the origin
 * records.
 */
final class Explainer {

    private Explainer() {
    }

    static String explain(Rendering r, FoldedState state, LongFunction<Envelope> record) {
        ClusterState c = state.cluster();
        StringBuilder out = new StringBuilder();
        out.append("# kproxy render --explain: ").append(Printed.comment(r.mode())).append(" ruleset, ").append(r.point().describe())
                .append('\n');
        c.configOffset().ifPresentOrElse(o -> out.append("# configuration: ").append(origin(record, new Origin(o, ""))).append('\n'),
                () -> out.append("# configuration: none recorded (defaults)\n"));
        // The node name may come from a snapshot file, which no NodeName constructor checked.
        String node = Printed.comment(c.nodeName());
        c.nodeOrigin().ifPresentOrElse(o -> out.append("# node ").append(node).append(": ").append(origin(record, o)).append('\n'),
                () -> out.append("# node ").append(node).append(": no Node observed\n"));
        Set<String> headed = new HashSet<>();
        Set<ServiceRef> rendered = new TreeSet<>();
        Optional<ServiceRef> last = Optional.empty();
        for (RulesetBlocks.Line l : RulesetBlocks.parse(r.mode(), r.text())) {
            if (l.owner().isPresent() && !l.owner().equals(last) && headed.add(l.section() + " " + l.owner().get())) {
                header(out, l.owner().get(), c, record);
            }
            if (l.kind() != RulesetBlocks.Kind.BLANK) {
                last = l.owner();
            }
            l.owner().ifPresent(rendered::add);
            out.append(l.text()).append('\n');
        }
        List<ServiceRef> without = c.services().stream().filter(s -> !rendered.contains(s)).toList();
        if (!without.isEmpty()) {
            out.append("\n# Services without rules:\n");
            for (ServiceRef s : without) {
                String why = c.serviceSkipReason(s).orElse("no rules rendered");
                out.append("#   ").append(s).append(": ").append(Printed.comment(why)).append("; Service ")
                        .append(c.serviceOrigin(s).map(o -> origin(record, o)).orElse("?")).append('\n');
            }
        }
        return out.toString();
    }

    private static void header(StringBuilder out, ServiceRef s, ClusterState c, LongFunction<Envelope> record) {
        out.append("# ").append(s).append(": Service ").append(c.serviceOrigin(s).map(o -> origin(record, o)).orElse("not in the state"))
                .append('\n');
        Map<EndpointSliceRef, Origin> slices = c.sliceOrigins(s);
        if (slices.isEmpty()) {
            out.append("#   no EndpointSlices\n");
        }
        slices.forEach((ref, o) -> out.append("#   EndpointSlice ").append(ref).append(": ").append(origin(record, o)).append('\n'));
    }

    /** {@code #853 2026-11-22T03:12:04.500Z ServiceObserved rv 184555}. */
    private static String origin(LongFunction<Envelope> record, Origin o) {
        // The origin's resourceVersion may come from a snapshot file, which no event constructor
        // checked: escaped here whatever its source (issue 18, defect 4).
        String rv = o.resourceVersion().isEmpty() ? "" : " rv " + Printed.comment(o.resourceVersion());
        try {
            Envelope e = record.apply(o.offset());
            return "#" + o.offset() + " " + Describe.time(e.recordedAt()) + " " + Describe.type(e.event()) + rv;
        } catch (HistoryException e) {
            return "#" + o.offset() + rv + " (record no longer held)";
        }
    }
}

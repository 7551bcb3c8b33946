package io.kproxy.source.kube;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.spi.EventLog;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Test-only: a log's records as short strings, per kind, for readable assertions. */
final class LogView {

    private LogView() {
    }

    static List<Envelope> records(EventLog log, long from) {
        return log.read(from, 100_000);
    }

    /** Records of {@code kind} from {@code from} on, e.g. {@code observed ns1/web}, {@code deleted? ns1/a}. */
    static List<String> of(EventLog log, ResourceKind kind, long from) {
        List<String> out = new ArrayList<>();
        for (Envelope e : records(log, from)) {
            if (kindOf(e.event()) == kind) {
                out.add(describe(e.event()));
            }
        }
        return out;
    }

    static List<String> all(EventLog log, long from) {
        List<String> out = new ArrayList<>();
        for (Envelope e : records(log, from)) {
            out.add(describe(e.event()));
        }
        return out;
    }

    static ResourceKind kindOf(ClusterEvent event) {
        return switch (event) {
            case ServiceObserved _, ServiceDeleted _ -> ResourceKind.SERVICE;
            case EndpointSliceObserved _, EndpointSliceDeleted _ -> ResourceKind.ENDPOINT_SLICE;
            case NodeObserved _, NodeDeleted _ -> ResourceKind.NODE;
            case ServiceCIDRObserved _, ServiceCIDRDeleted _ -> ResourceKind.SERVICE_CIDR;
            case SourceSynced s -> s.kind();
            case SourceRelisted r -> r.kind();
            default -> null;
        };
    }

    /** {@code observed KEY}, {@code deleted KEY} (or {@code deleted? KEY} when the final state is unknown), {@code synced}, {@code relisted [KEYS]}. */
    static String describe(ClusterEvent event) {
        return switch (event) {
            case ServiceObserved o -> "observed " + o.service();
            case ServiceDeleted d -> (d.finalStateUnknown() ? "deleted? " : "deleted ") + d.service();
            case EndpointSliceObserved o -> "observed " + o.slice();
            case EndpointSliceDeleted d -> (d.finalStateUnknown() ? "deleted? " : "deleted ") + d.slice();
            case NodeObserved o -> "observed " + o.node();
            case NodeDeleted d -> (d.finalStateUnknown() ? "deleted? " : "deleted ") + d.node();
            case ServiceCIDRObserved o -> "observed " + o.name() + " " + o.cidrs();
            case ServiceCIDRDeleted d -> (d.finalStateUnknown() ? "deleted? " : "deleted ") + d.name();
            case SourceSynced s -> "synced " + s.kind();
            case SourceRelisted r -> "relisted " + r.kind() + " " + new TreeSet<>(r.keysPresent());
            default -> event.type().toString();
        };
    }
}

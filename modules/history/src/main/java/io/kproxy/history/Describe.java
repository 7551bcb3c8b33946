package io.kproxy.history;

import io.kproxy.config.ConfigTrees;
import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How records are named in every report: the event type, the object a record is about, its
 * resourceVersion, times to the millisecond in UTC. One place, so that {@code render --explain},
 * {@code diff} and {@code audit} say the same thing the same way. Every free-text value of a
 * record is printed through {@link Printed}. Public so that tools which document a journal (the
 * sample generator's table of moments, events/samples/README.md) name records as the reports do.
 * Pure and thread-safe; arguments must not be null; never returns null.
 */
public final class Describe {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Describe() {
    }

    /** {@code 2026-11-22T03:12:04.500Z}: always milliseconds, always UTC, so that columns line up. */
    public static String time(Instant t) {
        return TIME.format(t);
    }

    /** The event type as the events/ pages name it ({@code EndpointSliceObserved}). */
    public static String type(ClusterEvent e) {
        return e.getClass().getSimpleName();
    }

    /** The object a record is about: {@code ns/name} of a Service or slice, {@code node/<name>}, {@code servicecidr/<name>} with its ranges, a barrier's kind. */
    public static String object(ClusterEvent event) {
        return switch (event) {
            case ServiceObserved e -> e.service().toString();
            case ServiceDeleted e -> e.service() + (e.finalStateUnknown() ? " (final state unknown)" : "");
            case EndpointSliceObserved e -> e.slice().toString();
            case EndpointSliceDeleted e -> e.slice() + (e.finalStateUnknown() ? " (final state unknown)" : "");
            case NodeObserved e -> "node/" + e.node().value();
            case NodeDeleted e -> "node/" + e.node().value();
            case ServiceCIDRObserved e -> "servicecidr/" + e.name() + " " + e.cidrs();
            case ServiceCIDRDeleted e -> "servicecidr/" + e.name() + (e.finalStateUnknown() ? " (final state unknown)" : "");
            case SourceSynced e -> kind(e.kind());
            case SourceRelisted e -> kind(e.kind()) + " (" + e.keysPresent().size() + " present)";
            // The mode the fold took from the record (the configuration core's reading), not the raw text.
            case ConfigRecorded e -> "node " + e.node().value() + ", mode " + ConfigTrees.readRecorded(e.config()).config().mode().apiName();
            case SyncApplied e -> Printed.text(e.backend()) + " generation " + e.generation() + " " + e.kind().name().toLowerCase() + " up to #"
                    + e.uptoOffset();
            case SyncFailed e -> Printed.text(e.backend()) + " generation " + e.generation() + " " + e.kind().name().toLowerCase() + ": "
                    + Printed.text(e.error());
            case DataplanePinned e -> "to #" + e.toOffset() + ": " + Printed.text(e.reason());
            case DataplaneUnpinned e -> Printed.text(e.reason());
            case LocalAddressesObserved e -> "node/" + e.node().value() + " local addresses " + e.addresses();
        };
    }

    /** The record's resourceVersion, or "" when its event carries none; as recorded (print it through {@link Printed}). */
    static String resourceVersion(ClusterEvent event) {
        return switch (event) {
            case ServiceObserved e -> e.resourceVersion();
            case ServiceDeleted e -> e.resourceVersion();
            case EndpointSliceObserved e -> e.resourceVersion();
            case EndpointSliceDeleted e -> e.resourceVersion();
            case NodeObserved e -> e.resourceVersion();
            case NodeDeleted e -> e.resourceVersion();
            case ServiceCIDRObserved e -> e.resourceVersion();
            case ServiceCIDRDeleted e -> e.resourceVersion();
            case SourceSynced e -> e.resourceVersion();
            case SourceRelisted e -> e.resourceVersion();
            case ConfigRecorded e -> "";
            case SyncApplied e -> "";
            case SyncFailed e -> "";
            case DataplanePinned e -> "";
            case DataplaneUnpinned e -> "";
            case LocalAddressesObserved e -> "";
        };
    }

    /** {@code #845 2026-11-22T03:12:05.000Z EndpointSliceObserved shop/checkout-b9w2m rv 184512}. */
    static String record(Envelope e) {
        String rv = resourceVersion(e.event());
        return "#" + e.offset() + " " + time(e.recordedAt()) + " " + type(e.event()) + " " + object(e.event())
                + (rv.isEmpty() ? "" : " rv " + Printed.text(rv));
    }

    private static String kind(ResourceKind k) {
        return switch (k) {
            case SERVICE -> "Services";
            case ENDPOINT_SLICE -> "EndpointSlices";
            case NODE -> "Nodes";
            case SERVICE_CIDR -> "ServiceCIDRs";
        };
    }
}

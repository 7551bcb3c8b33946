package io.kproxy.engine;

import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * An EndpointSlice's {@code endpoints.kubernetes.io/last-change-trigger-time} annotation, set by
 * the EndpointSlice controller to when the change that produced this version happened; upstream
 * observes "programmed minus trigger time" as {@code kubeproxy_network_programming_duration_seconds}
 * (docs/upstream-behaviour.md §1.6 row 51). Immutable.
 *
 * @param at     the trigger time
 * @param family the slice's {@code addressType}
 */
record TriggerTime(Instant at, IpFamily family) {

    static final String ANNOTATION = "endpoints.kubernetes.io/last-change-trigger-time";

    /** The trigger time of a slice object, when it has a parsable one and an IP address type. Pure. */
    static Optional<TriggerTime> of(Json.Obj slice) {
        Optional<String> text = slice.object("metadata").object("annotations").string(ANNOTATION);
        Optional<IpFamily> family = switch (slice.string("addressType").orElse("")) {
            case "IPv4" -> Optional.of(IpFamily.IPV4);
            case "IPv6" -> Optional.of(IpFamily.IPV6);
            default -> Optional.empty();
        };
        if (text.isEmpty() || family.isEmpty()) {
            return Optional.empty();
        }
        try {
            // RFC 3339, as metav1.Time writes it; fractional seconds are accepted too.
            return Optional.of(new TriggerTime(OffsetDateTime.parse(text.get()).toInstant(), family.get()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}

package io.kproxy.backend;

import java.util.Locale;

/**
 * An object a backend left out of a sync as bad input, whole, never half-applied (ipvs mode's
 * "Bad input", docs/backends/ipvs.md), reported in the sync's {@link Transaction#skipped()} when
 * the decision is new, so that the engine logs it once and counts it
 * ({@code kproxy_sync_skipped_objects_total}, docs/metrics.md). Immutable.
 *
 * @param cause  why, as a closed set (the metric's {@code cause} label)
 * @param object what was skipped: a service port and family ({@code ns/name:port/TCP IPv4}) or a
 *               virtual server
 * @param reason the reason in words, as the ruleset text's {@code # skipped:} comment says it
 */
public record Skipped(Cause cause, String object, String reason) {

    /** Why an object was skipped. */
    public enum Cause {
        /** The configured scheduler is neither loaded nor loadable ({@code ip_vs_<name>}). */
        MISSING_SCHEDULER,
        /** A service address is one of the node's own: binding it would take it from the node. */
        ADDRESS_COLLISION,
        /** More real servers than one virtual server may hold. */
        TOO_MANY_REAL_SERVERS,
        /** Two service ports claim one virtual server; the first in service-port order keeps it. */
        DUPLICATE_VIRTUAL_SERVER;

        /** The metric label: {@code missing_scheduler}, ... */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Skipped {
        if (cause == null || object == null || reason == null || object.isBlank() || reason.isBlank()) {
            throw new IllegalArgumentException("cause, object and reason are required");
        }
    }
}

package io.kproxy.engine;

import io.kproxy.backend.Skipped;
import io.kproxy.events.SyncKind;
import io.kproxy.model.IpFamily;
import io.kproxy.state.NodeState;
import io.kproxy.state.Pin;
import io.kproxy.state.ServicePortState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Upstream kube-proxy's metrics ({@code pkg/proxy/metrics/metrics.go}, docs/upstream-behaviour.md
 * §1.7) with their exact names, types, label names and buckets, registered in a Micrometer
 * Prometheus registry, so that existing dashboards and alerts work unchanged.
 *
 * <p>Per-proxier metrics carry {@code ip_family} ({@code IPv4}, {@code IPv6}). kproxy programs both
 * families in one sync, so a sync is observed once under each family label. Two facts of the
 * exposition, checked by {@code ProxyMetricsTest}, make two of them bypass Micrometer's meters and
 * register on the Prometheus registry underneath (same registry, same scrape): Micrometer's
 * Prometheus naming strips a {@code _total} suffix from gauge names, and upstream's one gauge named
 * {@code ..._total} ({@code kubeproxy_sync_proxy_rules_no_local_endpoints_total}) must keep it;
 * and Micrometer refuses a histogram bucket at 0, which
 * {@code kubeproxy_network_programming_duration_seconds} has (upstream's {@code MergeBuckets}
 * starts with one). Micrometer also adds a {@code <histogram>_max} gauge next to each of its
 * histograms: an addition, not a change of upstream's series.
 *
 * <p>Thread-safe; never blocks.
 */
public final class ProxyMetrics {

    /** {@code prometheus.ExponentialBuckets(0.001, 2, 15)}. */
    static final double[] SYNC_BUCKETS = exponential(0.001, 2, 15);
    /** {@code metrics.MergeBuckets(...)}: a leading 0, 0.25, 0.5, 1..59, 60..115 by 5, 120..300 by 30. */
    static final double[] PROGRAMMING_BUCKETS = programmingBuckets();

    private final PrometheusMeterRegistry registry;
    private final String mode;
    private final Map<IpFamily, Timer> syncDuration = new EnumMap<>(IpFamily.class);
    private final Map<IpFamily, Timer> fullDuration = new EnumMap<>(IpFamily.class);
    private final Map<IpFamily, Timer> partialDuration = new EnumMap<>(IpFamily.class);
    private final Map<IpFamily, Counter> syncFailures = new EnumMap<>(IpFamily.class);
    private final AtomicLong lastSyncMillis = new AtomicLong();
    private final AtomicLong lastQueuedMillis = new AtomicLong();
    private final AtomicLong pinnedToOffset = new AtomicLong(-1);
    private final Counter serviceChanges;
    private final Counter endpointChanges;
    private final io.prometheus.metrics.core.metrics.Gauge noLocalEndpoints;
    private final io.prometheus.metrics.core.metrics.Histogram programming;

    /**
     * @param mode    the proxy mode, which decides the mode-specific metrics (as upstream's RegisterMetrics)
     * @param pending the changes not programmed yet
     */
    ProxyMetrics(PrometheusMeterRegistry registry, String mode, PendingChanges pending) {
        this.registry = registry;
        this.mode = mode;
        for (IpFamily f : IpFamily.values()) {
            String family = label(f);
            syncDuration.put(f, histogram("kubeproxy_sync_proxy_rules_duration", "SyncProxyRules latency in seconds",
                    SYNC_BUCKETS, family));
            fullDuration.put(f, histogram("kubeproxy_sync_full_proxy_rules_duration",
                    "SyncProxyRules latency in seconds for full resyncs", SYNC_BUCKETS, family));
            partialDuration.put(f, histogram("kubeproxy_sync_partial_proxy_rules_duration",
                    "SyncProxyRules latency in seconds for partial resyncs", SYNC_BUCKETS, family));
            Gauge.builder("kubeproxy_sync_proxy_rules_last_timestamp_seconds", lastSyncMillis, m -> m.get() / 1000.0)
                    .description("The last time proxy rules were successfully synced").tag("ip_family", family).register(registry);
            Gauge.builder("kubeproxy_sync_proxy_rules_last_queued_timestamp_seconds", lastQueuedMillis, m -> m.get() / 1000.0)
                    .description("The last time a sync of proxy rules was queued").tag("ip_family", family).register(registry);
            failureCounter(f).ifPresent(c -> syncFailures.put(f, c));
            cleanupCounter(f);
        }
        Gauge.builder("kubeproxy_sync_proxy_rules_endpoint_changes_pending", pending, p -> p.pending(false))
                .description("Pending proxy rules Endpoint changes").register(registry);
        Gauge.builder("kubeproxy_sync_proxy_rules_service_changes_pending", pending, p -> p.pending(true))
                .description("Pending proxy rules Service changes").register(registry);
        endpointChanges = Counter.builder("kubeproxy_sync_proxy_rules_endpoint_changes_total")
                .description("Cumulative proxy rules Endpoint changes").register(registry);
        serviceChanges = Counter.builder("kubeproxy_sync_proxy_rules_service_changes_total")
                .description("Cumulative proxy rules Service changes").register(registry);
        noLocalEndpoints = io.prometheus.metrics.core.metrics.Gauge.builder().name("kubeproxy_sync_proxy_rules_no_local_endpoints_total")
                .help("Number of services with a Local traffic policy and no endpoints").labelNames("ip_family", "traffic_policy")
                .withoutExemplars().register(registry.getPrometheusRegistry());
        programming = io.prometheus.metrics.core.metrics.Histogram.builder().name("kubeproxy_network_programming_duration_seconds")
                .help("In Cluster Network Programming Latency in seconds").classicOnly().classicUpperBounds(PROGRAMMING_BUCKETS)
                .labelNames("ip_family").withoutExemplars().register(registry.getPrometheusRegistry());
        for (IpFamily f : IpFamily.values()) {
            programming.labelValues(label(f));
            noLocalEndpoints.labelValues(label(f), "internal").set(0);
            noLocalEndpoints.labelValues(label(f), "external").set(0);
        }
        // kproxy's own (docs/design.md, "Time travel and rollback"): whether a rollback pinned the
        // dataplane, and to which offset.
        Gauge.builder("kproxy_dataplane_pinned", pinnedToOffset, p -> p.get() < 0 ? 0 : 1)
                .description("1 while the dataplane is pinned to an older state (kproxy rollback), 0 while it programs the live state")
                .register(registry);
        Gauge.builder("kproxy_dataplane_pinned_offset", pinnedToOffset, AtomicLong::get)
                .description("The log offset whose state is programmed while pinned; -1 while live").register(registry);
        // kproxy's own: objects a backend left out of a sync as bad input, counted once per decision
        // (docs/backends/ipvs.md, "Bad input"); every cause registered, so that dashboards find 0.
        for (Skipped.Cause cause : Skipped.Cause.values()) {
            skippedCounter(cause);
        }
        for (String code : new String[] {"200", "503"}) {
            healthCounter("kubeproxy_proxy_healthz_total", "Cumulative proxy healthz HTTP status", code);
            healthCounter("kubeproxy_proxy_livez_total", "Cumulative proxy livez HTTP status", code);
        }
    }

    /** Upstream's {@code v1.IPFamily} spelling. */
    static String label(IpFamily f) {
        return f == IpFamily.IPV4 ? "IPv4" : "IPv6";
    }

    /**
     * A seconds histogram: a Micrometer {@link Timer} named without the unit (the Prometheus
     * naming appends {@code _seconds}). Timers, not distribution summaries: a summary's buckets
     * below 1 are not counted exactly.
     */
    private Timer histogram(String name, String help, double[] buckets, String family) {
        Duration[] slos = java.util.Arrays.stream(buckets).mapToObj(b -> Duration.ofNanos(Math.round(b * 1e9))).toArray(Duration[]::new);
        return Timer.builder(name).description(help).serviceLevelObjectives(slos).tag("ip_family", family).register(registry);
    }

    /** The sync-failure counter of the mode, as upstream registers per mode. */
    private Optional<Counter> failureCounter(IpFamily f) {
        return switch (mode) {
            case "nftables" -> Optional.of(Counter.builder("kubeproxy_sync_proxy_rules_nftables_sync_failures_total")
                    .description("Cumulative proxy nftables sync failures").tag("ip_family", label(f)).register(registry));
            case "iptables", "ipvs" -> Optional.of(Counter.builder("kubeproxy_sync_proxy_rules_iptables_restore_failures_total")
                    .description("Cumulative proxy iptables restore failures").tag("ip_family", label(f)).register(registry));
            default -> Optional.empty();
        };
    }

    /**
     * nftables' stale-chain cleanup counter. kproxy deletes stale chains inside the sync
     * transaction itself (docs/backends/nftables.md), so a cleanup cannot fail on its own and this
     * stays 0; a failed sync counts as a sync failure. Registered so that dashboards find it.
     */
    private void cleanupCounter(IpFamily f) {
        if (mode.equals("nftables")) {
            Counter.builder("kubeproxy_sync_proxy_rules_nftables_cleanup_failures_total")
                    .description("Cumulative proxy nftables cleanup failures").tag("ip_family", label(f)).register(registry);
        }
    }

    private Counter skippedCounter(Skipped.Cause cause) {
        return Counter.builder("kproxy_sync_skipped_objects_total").description("Objects a sync newly left out as bad input")
                .tag("cause", cause.label()).register(registry);
    }

    /** A sync newly left out {@code skipped}. */
    public void skipped(Skipped skipped) {
        skippedCounter(skipped.cause()).increment();
    }

    private void healthCounter(String name, String help, String code) {
        Counter.builder(name).description(help).tag("code", code).register(registry);
    }

    /** A successful sync of {@code kind} that took {@code took} and ended at {@code at}. */
    public void syncApplied(SyncKind kind, Duration took, Instant at) {
        for (IpFamily f : IpFamily.values()) {
            syncDuration.get(f).record(took);
            (kind == SyncKind.FULL ? fullDuration : partialDuration).get(f).record(took);
        }
        lastSyncMillis.set(at.toEpochMilli());
    }

    /** The dataplane pin in force, or empty while the live state is programmed. */
    public void pinned(Optional<Pin> pin) {
        pinnedToOffset.set(pin.map(Pin::toOffset).orElse(-1L));
    }

    /** A failed sync (upstream counts a failed transaction or restore). */
    public void syncFailed() {
        syncFailures.values().forEach(Counter::increment);
    }

    /** A sync was requested because a change arrived. */
    public void queued(Instant at) {
        lastQueuedMillis.set(at.toEpochMilli());
    }

    /** A Service change that changes rules was folded. */
    public void serviceChange() {
        serviceChanges.increment();
    }

    /** An EndpointSlice change that changes rules was folded. */
    public void endpointChange() {
        endpointChanges.increment();
    }

    /** Trigger time to programmed, for a slice of {@code family}. */
    public void networkProgramming(IpFamily family, Duration latency) {
        programming.labelValues(label(family)).observe(Math.max(0, latency.toNanos() / 1e9));
    }

    /**
     * Per family, the service ports with a Local policy whose endpoints exist but none on this
     * node (upstream's {@code serviceNoLocalEndpointsTotalInternal/External}, set after each sync).
     */
    public void noLocalEndpoints(NodeState state) {
        noLocalEndpoints(NoLocalEndpoints.of(state));
    }

    /** The same gauges from counts the sync keeps incrementally. */
    void noLocalEndpoints(NoLocalEndpoints counts) {
        for (IpFamily f : IpFamily.values()) {
            noLocalEndpoints.labelValues(label(f), "internal").set(counts.internal(f));
            noLocalEndpoints.labelValues(label(f), "external").set(counts.external(f));
        }
    }

    void healthz(int code) {
        registry.counter("kubeproxy_proxy_healthz_total", "code", Integer.toString(code)).increment();
    }

    void livez(int code) {
        registry.counter("kubeproxy_proxy_livez_total", "code", Integer.toString(code)).increment();
    }

    /** The Prometheus text exposition of everything registered (what {@code /metrics} serves). */
    public String scrape() {
        return registry.scrape();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    private static double[] exponential(double start, double factor, int count) {
        double[] out = new double[count];
        for (int i = 0; i < count; i++) {
            out[i] = start * Math.pow(factor, i);
        }
        return out;
    }

    private static double[] programmingBuckets() {
        double[] out = new double[1 + 2 + 59 + 12 + 7];
        int i = 1; // MergeBuckets starts from make([]float64, 1): a 0 bucket first.
        for (int k = 0; k < 2; k++) {
            out[i++] = 0.25 + 0.25 * k;
        }
        for (int k = 0; k < 59; k++) {
            out[i++] = 1 + k;
        }
        for (int k = 0; k < 12; k++) {
            out[i++] = 60 + 5 * k;
        }
        for (int k = 0; k < 7; k++) {
            out[i++] = 120 + 30 * k;
        }
        return out;
    }
}

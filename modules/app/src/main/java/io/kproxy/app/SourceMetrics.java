package io.kproxy.app;

import io.kproxy.source.kube.SourceState;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * kproxy's metrics of the Kubernetes source (docs/metrics.md), read from the latest
 * {@link SourceState} the source published. Thread-safe.
 */
final class SourceMetrics {

    private final AtomicReference<SourceState> state = new AtomicReference<>(SourceState.initial());

    SourceMetrics(MeterRegistry registry) {
        gauge(registry, "kproxy_source_connected", "1 while every watch is open", s -> s.connected() ? 1 : 0);
        gauge(registry, "kproxy_source_synced", "1 once every kind's first list is durable", s -> s.synced() ? 1 : 0);
        gauge(registry, "kproxy_source_queue_depth", "Events waiting to be appended", SourceState::queueDepth);
        gauge(registry, "kproxy_source_last_event_timestamp_seconds", "When the last informer callback arrived",
                s -> s.lastEventTime().toEpochMilli() / 1000.0);
        counter(registry, "kproxy_source_relists_total", "Completed relists (410 Gone, watch failure, watchdog)", SourceState::relists);
        counter(registry, "kproxy_source_forced_relists_total", "Relists the watchdog forced", SourceState::forcedRelists);
        counter(registry, "kproxy_source_reconnects_total", "Watches resumed without a relist", SourceState::reconnects);
        counter(registry, "kproxy_source_appended_total", "Events appended to the log", SourceState::appended);
        counter(registry, "kproxy_source_append_retries_total", "Appends retried after a retryable refusal", SourceState::appendRetries);
        counter(registry, "kproxy_source_skipped_total", "Objects that could not be recorded", SourceState::skipped);
    }

    void update(SourceState s) {
        state.set(s);
    }

    private void gauge(MeterRegistry r, String name, String help, ToDoubleFunction<SourceState> f) {
        Gauge.builder(name, state, s -> f.applyAsDouble(s.get())).description(help).register(r);
    }

    private void counter(MeterRegistry r, String name, String help, ToDoubleFunction<SourceState> f) {
        FunctionCounter.builder(name, state, s -> f.applyAsDouble(s.get())).description(help).register(r);
    }
}

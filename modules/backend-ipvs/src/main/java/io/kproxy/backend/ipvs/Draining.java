package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.VsKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The real servers being drained (weight 0, upstream's graceful-termination list,
 * {@code pkg/proxy/ipvs/graceful_termination.go}) with when each is next checked for connections.
 * It is what the kernel reported, not what any state implies, so the backend holds it next to its
 * kernel port and hands a snapshot to the diff (docs/backends/ipvs.md, "Graceful termination").
 * An immutable value; the {@code with}/{@code without} methods return new ones.
 *
 * @param due when each draining real server is next checked
 */
record Draining(SortedMap<RsKey, Instant> due) {

    /** Upstream's {@code rsCheckDeleteInterval}: the list is tried once a minute. */
    static final Duration CHECK_INTERVAL = Duration.ofMinutes(1);

    static final Draining NONE = new Draining(new TreeMap<>());

    Draining {
        due = Collections.unmodifiableSortedMap(new TreeMap<>(due));
    }

    boolean contains(RsKey k) {
        return due.containsKey(k);
    }

    Draining with(RsKey k, Instant next) {
        TreeMap<RsKey, Instant> m = new TreeMap<>(due);
        m.put(k, next);
        return new Draining(m);
    }

    Draining without(RsKey k) {
        if (!due.containsKey(k)) {
            return this;
        }
        TreeMap<RsKey, Instant> m = new TreeMap<>(due);
        m.remove(k);
        return new Draining(m);
    }

    /** Without every real server of a deleted virtual server. */
    Draining withoutService(VsKey vs) {
        TreeMap<RsKey, Instant> m = new TreeMap<>(due);
        m.keySet().removeIf(k -> k.vs().equals(vs));
        return m.size() == due.size() ? this : new Draining(m);
    }

    /** The earliest next check, if any real server is draining. */
    Optional<Instant> next() {
        return due.values().stream().min(Instant::compareTo);
    }
}

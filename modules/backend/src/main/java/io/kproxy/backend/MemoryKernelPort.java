package io.kproxy.backend;

import io.kproxy.backend.spi.ConntrackPort;
import io.kproxy.backend.spi.KernelPort;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The in-memory fake of {@link KernelPort} and {@link ConntrackPort}: records what was applied
 * and checked, and fails on demand, so engine and backend tests run without a kernel. A
 * backend-specific interpreter (the nftables one lives in that backend's tests) can replay
 * {@link #applied()} to check the resulting rules. Thread-safe (synchronized).
 */
public final class MemoryKernelPort implements KernelPort, ConntrackPort {

    private final List<String> applied = new ArrayList<>();
    private final List<String> checked = new ArrayList<>();
    private final List<ConntrackFilter> conntrack = new ArrayList<>();
    private Predicate<String> failWhen = text -> false;
    private KernelException.Kind failKind = KernelException.Kind.FATAL;

    /** Makes every later apply or check whose text matches {@code when} fail with {@code kind}. */
    public synchronized void failWhen(Predicate<String> when, KernelException.Kind kind) {
        this.failWhen = when;
        this.failKind = kind;
    }

    @Override
    public synchronized void apply(String text) throws KernelException {
        if (failWhen.test(text)) {
            throw new KernelException(failKind, "injected failure");
        }
        applied.add(text);
    }

    @Override
    public synchronized void check(String text) throws KernelException {
        if (failWhen.test(text)) {
            throw new KernelException(failKind, "injected failure");
        }
        checked.add(text);
    }

    @Override
    public synchronized int delete(List<ConntrackFilter> filters) {
        conntrack.addAll(filters);
        return 0;
    }

    /** Texts applied successfully, oldest first. */
    public synchronized List<String> applied() {
        return List.copyOf(applied);
    }

    /** Texts checked successfully, oldest first. */
    public synchronized List<String> checked() {
        return List.copyOf(checked);
    }

    /** Conntrack filters received, oldest first. */
    public synchronized List<ConntrackFilter> conntrackFilters() {
        return List.copyOf(conntrack);
    }
}

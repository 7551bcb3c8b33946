package io.kproxy.backend.nftables;

import java.util.function.Supplier;

/**
 * One part of a full render, or of a large transaction's compile, done on a second core while the
 * caller does another part: a platform thread of its own ({@code kproxy-render-helper},
 * {@code kproxy-compile-helper}), started for the task and ended with it. A full render (the first
 * sync, a restart, a change of the node or the settings) and a full transaction are rare and, at
 * tens of thousands of Services, seconds long, so a thread each costs nothing beside them; the
 * incremental renders and small transactions of every other sync never fork
 * (docs/backends/nftables.md, "Syncs").
 *
 * @param <T> what the task returns
 */
public final class Forked<T> {

    /** Service ports from which a full render splits its work over two cores. */
    static final int FROM_PORTS = 2_000;

    private final Thread thread;
    private T value;
    private Throwable failure;

    private Forked(String name, Supplier<T> task) {
        this.thread = Thread.ofPlatform().name(name).daemon().unstarted(() -> {
            try {
                value = task.get();
            } catch (Throwable t) {
                failure = t;
            }
        });
    }

    /** Whether a full render of {@code ports} service ports splits its work: enough of them, and a second processor to run on. */
    static boolean worthIt(int ports) {
        return ports >= FROM_PORTS && Runtime.getRuntime().availableProcessors() > 1;
    }

    /** Starts {@code task}, a part of a render, on its own thread. */
    static <T> Forked<T> start(Supplier<T> task) {
        return start("kproxy-render-helper", task);
    }

    /** Starts {@code task} on its own thread named {@code name}. */
    public static <T> Forked<T> start(String name, Supplier<T> task) {
        Forked<T> f = new Forked<>(name, task);
        f.thread.start();
        return f;
    }

    /** Waits for the task and returns its result, or throws what it threw. */
    public T join() {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                // The result is what the caller goes on with: finish it, and keep the interrupt for the caller.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
        return value;
    }
}

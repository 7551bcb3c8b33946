package io.kproxy.netns;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

/**
 * A dedicated platform thread that runs every task given to it, optionally after entering a
 * named network namespace ({@code /var/run/netns/<name>}) with {@code setns(2)}. Sockets (netlink
 * or IP) bind to the network namespace of the thread that creates them, and {@code setns} changes
 * only the calling thread, so anything that must talk to another namespace's kernel (an nft
 * context, a netlink socket, a test server) is created on this thread; a libnftables context is
 * also used only here.
 *
 * <p>Thread-safe: {@link #call} may be used from any thread and blocks until the task ran;
 * {@link #submit} does not block. {@link #close} stops the thread (interrupting a running task).
 */
public final class NetnsThread implements AutoCloseable {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,200}");

    private final ExecutorService executor;
    private final Optional<String> netns;

    private NetnsThread(ExecutorService executor, Optional<String> netns) {
        this.executor = executor;
        this.netns = netns;
    }

    /** A thread in this process's own namespace, named {@code kproxy-<purpose>}. */
    public static NetnsThread current(String purpose) {
        return new NetnsThread(Executors.newSingleThreadExecutor(r -> daemon(r, "kproxy-" + purpose)), Optional.empty());
    }

    /**
     * A thread, named {@code kproxy-<purpose>-<netns>}, that has entered the named namespace.
     *
     * @throws IllegalArgumentException when {@code netns} is not a plain name (it could leave
     *     {@code /var/run/netns})
     * @throws IllegalStateException with the errno when the namespace cannot be entered; the thread
     *     is stopped then
     */
    public static NetnsThread enter(String netns, String purpose) {
        if (!NAME.matcher(netns).matches()) {
            throw new IllegalArgumentException("not a network namespace name: " + netns);
        }
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> daemon(r, "kproxy-" + purpose + "-" + netns));
        NetnsThread t = new NetnsThread(ex, Optional.of(netns));
        try {
            t.call(() -> {
                Setns.enterOnThisThread(netns);
                return null;
            });
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
        return t;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * Runs {@code task} on this thread and returns its result. An unchecked exception or error
     * thrown by the task is rethrown as is; a checked one is wrapped in an
     * {@link IllegalStateException} naming the namespace. Interrupting the caller cancels the task.
     */
    public <T> T call(Callable<T> task) {
        Future<T> f = executor.submit(task);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new IllegalStateException("interrupted while waiting for " + description(), e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("in " + description() + ": " + c, c);
        }
    }

    /** Starts {@code task} on this thread without waiting; the future completes with its outcome. */
    public <T> CompletableFuture<T> submit(Callable<T> task) {
        CompletableFuture<T> cf = new CompletableFuture<>();
        executor.submit(() -> {
            try {
                cf.complete(task.call());
            } catch (Throwable t) {
                cf.completeExceptionally(t);
            }
        });
        return cf;
    }

    /** Which namespace the thread is in, for logs: {@code netns <name>} or {@code current netns}. */
    public String description() {
        return netns.map(n -> "netns " + n).orElse("current netns");
    }

    /** The namespace name, when the thread entered one. */
    public Optional<String> netns() {
        return netns;
    }

    /** Stops the thread; a task still running is interrupted. Idempotent. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}

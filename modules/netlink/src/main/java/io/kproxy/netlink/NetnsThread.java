package io.kproxy.netlink;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import jnr.ffi.LibraryLoader;

/**
 * A dedicated platform thread that runs every task given to it, optionally after entering a
 * named network namespace ({@code /var/run/netns/<name>}) with {@code setns(2)}. Netlink
 * sockets bind to the network namespace of the thread that creates them, and {@code setns}
 * changes only the calling thread, so anything that must talk to another namespace's kernel
 * (an nft context, a socket) is created and used on this thread only.
 *
 * <p>Thread-safe: {@link #call} may be used from any thread; it blocks until the task ran.
 */
public final class NetnsThread implements AutoCloseable {

    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int CLONE_NEWNET = 0x40000000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,200}");

    private final ExecutorService executor;
    private final String description;

    private NetnsThread(ExecutorService executor, String description) {
        this.executor = executor;
        this.description = description;
    }

    /** A thread in this process's own namespace. */
    public static NetnsThread current(String purpose) {
        return new NetnsThread(Executors.newSingleThreadExecutor(r -> daemon(r, "kproxy-" + purpose)), "current netns");
    }

    /** A thread that has entered the named namespace, or fails with the errno when it cannot. */
    public static NetnsThread enter(String netns, String purpose) {
        if (!NAME.matcher(netns).matches()) {
            throw new IllegalArgumentException("not a network namespace name: " + netns);
        }
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> daemon(r, "kproxy-" + purpose + "-" + netns));
        NetnsThread t = new NetnsThread(ex, "netns " + netns);
        try {
            t.call(() -> {
                enterOnThisThread(netns);
                return null;
            });
        } catch (RuntimeException e) {
            t.close();
            throw e;
        }
        return t;
    }

    /** Moves the calling thread into {@code /var/run/netns/<netns>}. */
    public static void enterOnThisThread(String netns) {
        LibC libc = libc();
        int fd = libc.open("/var/run/netns/" + netns, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            throw new IllegalStateException("cannot open /var/run/netns/" + netns + ": errno " + jnr.ffi.Runtime.getSystemRuntime().getLastError());
        }
        try {
            if (libc.setns(fd, CLONE_NEWNET) != 0) {
                throw new IllegalStateException("setns(" + netns + ") failed: errno " + jnr.ffi.Runtime.getSystemRuntime().getLastError());
            }
        } finally {
            libc.close(fd);
        }
    }

    private static volatile LibC libc;

    private static LibC libc() {
        LibC l = libc;
        if (l == null) {
            l = LibraryLoader.create(LibC.class).load("c");
            libc = l;
        }
        return l;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** Runs {@code task} on this thread and returns its result; exceptions are rethrown unchecked. */
    public <T> T call(Callable<T> task) {
        Future<T> f = executor.submit(task);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new IllegalStateException("interrupted while waiting for " + description, e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        }
    }

    /** Starts {@code task} on this thread without waiting. */
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

    /** Which namespace the thread is in, for logs. */
    public String description() {
        return description;
    }

    /** The namespace name, when the thread entered one. */
    public Optional<String> netns() {
        return description.startsWith("netns ") ? Optional.of(description.substring(6)) : Optional.empty();
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}

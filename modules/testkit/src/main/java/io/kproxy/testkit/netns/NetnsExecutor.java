package io.kproxy.testkit.netns;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A platform thread that has entered a network namespace with {@code setns(2)} (through the
 * JDK's foreign-function API). Sockets belong to the namespace of the thread that creates them,
 * so test servers and clients create their sockets here; once created they may be used from any
 * thread. Thread-safe; {@link #call} blocks.
 */
public final class NetnsExecutor implements AutoCloseable {

    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int CLONE_NEWNET = 0x40000000;

    private final String netns;
    private final ExecutorService executor;

    private NetnsExecutor(String netns, ExecutorService executor) {
        this.netns = netns;
        this.executor = executor;
    }

    /** A thread inside {@code /var/run/netns/<netns>}. */
    public static NetnsExecutor enter(String netns) {
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "netns-" + netns);
            t.setDaemon(true);
            return t;
        });
        NetnsExecutor e = new NetnsExecutor(netns, ex);
        try {
            e.call(() -> {
                setns(netns);
                return null;
            });
        } catch (RuntimeException err) {
            e.close();
            throw err;
        }
        return e;
    }

    // Calling setns(2) is the point of this class; the launch grants native access to this module.
    private static void setns(String netns) throws Exception {
        try {
            setnsNative(netns);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @SuppressWarnings("restricted")
    private static void setnsNative(String netns) throws Throwable {
        Linker linker = Linker.nativeLinker();
        var libc = linker.defaultLookup();
        MethodHandle open = linker.downcallHandle(libc.find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        MethodHandle setns = linker.downcallHandle(libc.find("setns").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        MethodHandle close = linker.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment path = arena.allocateFrom("/var/run/netns/" + netns);
            int fd = (int) open.invokeExact(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                throw new IllegalStateException("cannot open /var/run/netns/" + netns);
            }
            int rc = (int) setns.invokeExact(fd, CLONE_NEWNET);
            int ignored = (int) close.invokeExact(fd);
            if (rc != 0 || ignored < 0) {
                throw new IllegalStateException("setns(" + netns + ") failed");
            }
        }
    }

    public String netns() {
        return netns;
    }

    /** Runs {@code task} inside the namespace and returns its result. */
    public <T> T call(Callable<T> task) {
        Future<T> f = executor.submit(task);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("in netns " + netns + ": " + e.getCause(), e.getCause());
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}

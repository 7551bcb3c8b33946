package io.kproxy.netns;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * libc's {@code open}, {@code setns} and {@code close} through the JDK's foreign-function API, with
 * {@code errno} captured right after each call (a later JVM call may overwrite it). Stateless; the
 * handles are built once, on first use.
 */
final class Setns {

    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int CLONE_NEWNET = 0x40000000;

    private Setns() {
    }

    /** Moves the calling thread into {@code /var/run/netns/<netns>}, or throws with the errno. */
    static void enterOnThisThread(String netns) {
        String path = "/var/run/netns/" + netns;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = arena.allocate(Handles.CAPTURE);
            int fd = (int) Handles.OPEN.invokeExact(errno, arena.allocateFrom(path), O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                throw new IllegalStateException("cannot open " + path + ": errno " + errno(errno));
            }
            int rc = (int) Handles.SETNS.invokeExact(errno, fd, CLONE_NEWNET);
            int setnsErrno = errno(errno);
            int closed = (int) Handles.CLOSE.invokeExact(errno, fd);
            if (rc != 0) {
                throw new IllegalStateException("setns(" + netns + ") failed: errno " + setnsErrno);
            }
            if (closed != 0) {
                throw new IllegalStateException("close(" + path + ") failed: errno " + errno(errno));
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            // invokeExact declares Throwable; the downcalls themselves throw nothing checked.
            throw new IllegalStateException("setns(" + netns + "): " + t, t);
        }
    }

    private static int errno(MemorySegment captured) {
        return (int) Handles.ERRNO.get(captured, 0L);
    }

    /** Built on first use, so that loading the class needs no native access. */
    private static final class Handles {
        static final Linker LINKER = Linker.nativeLinker();
        static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        static final MethodHandle SETNS = downcall("setns", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
        static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

        // Calling into libc is the point of this module; the launch grants it native access.
        @SuppressWarnings("restricted")
        private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
            MemorySegment symbol = LINKER.defaultLookup().find(name)
                    .orElseThrow(() -> new IllegalStateException("libc has no " + name));
            return LINKER.downcallHandle(symbol, descriptor, Linker.Option.captureCallState("errno"));
        }
    }
}

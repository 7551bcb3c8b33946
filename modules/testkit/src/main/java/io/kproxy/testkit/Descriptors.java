package io.kproxy.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * What the flood tests of the agent's listeners count (issue 18): the file descriptors this
 * process holds, and a loopback port free to bind. Linux only ({@code /proc/self/fd}). Stateless;
 * {@link #serverShare} blocks up to 500 ms.
 */
public final class Descriptors {

    private Descriptors() {
    }

    /** The descriptors this process holds now. */
    public static long open() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /**
     * The descriptors this process holds beyond {@code before} and the test's own {@code clients}
     * sockets, once at most {@code bound} or after 500 ms (the JDK releases a closed channel's
     * descriptor when the thread blocked on it has run; well before any request timeout here).
     */
    public static long serverShare(long before, int clients, long bound) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMillis(500).toNanos();
        long share;
        while ((share = open() - before - clients) > bound && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return share;
    }

    /** A loopback TCP port that was free a moment ago. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}

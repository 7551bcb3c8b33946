package io.kproxy.testkit.netns;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.netns.NetnsThread;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link NetnsThread} against the real kernel, in a namespace the test creates and deletes: the
 * thread is in that namespace for every task, sockets it creates belong there, and the caller's
 * thread stays where it was.
 */
@Timeout(120)
class NetnsThreadIT {

    /** The inode of the network namespace the calling thread is in. */
    private static long netnsInodeOfThisThread() throws Exception {
        String link = Files.readSymbolicLink(Path.of("/proc/thread-self/ns/net")).toString();
        return Long.parseLong(link.substring(link.indexOf('[') + 1, link.indexOf(']')));
    }

    private static long inodeOf(Path p) throws Exception {
        return ((Number) Files.getAttribute(p, "unix:ino")).longValue();
    }

    @Test
    void theThreadStaysInTheNamespaceItEnteredAndItsSocketsBelongThere() throws Exception {
        KernelTests.require("ip");
        long mine = netnsInodeOfThisThread();
        try (NetNs ns = NetNs.create("nsthread"); NetnsThread t = NetnsThread.enter(ns.name(), "it")) {
            long target = inodeOf(Path.of("/var/run/netns/" + ns.name()));
            assertThat(target).isNotEqualTo(mine);
            assertThat(t.call(NetnsThreadIT::netnsInodeOfThisThread)).isEqualTo(target);
            assertThat(t.submit(NetnsThreadIT::netnsInodeOfThisThread).join()).as("pinned for later tasks too").isEqualTo(target);
            assertThat(netnsInodeOfThisThread()).as("the caller did not move").isEqualTo(mine);
            assertThat(t.netns()).contains(ns.name());
            assertThat(t.description()).isEqualTo("netns " + ns.name());
            assertThat(t.call(() -> Thread.currentThread().getName())).isEqualTo("kproxy-it-" + ns.name());

            // An address that exists only on the namespace's loopback can be bound on the thread.
            ns.exec("ip", "addr", "add", "10.255.78.1/32", "dev", "lo");
            InetAddress onlyInside = InetAddress.getByName("10.255.78.1");
            try (ServerSocket s = t.call(() -> new ServerSocket())) {
                t.call(() -> {
                    s.bind(new InetSocketAddress(onlyInside, 0));
                    return null;
                });
                assertThat(s.getLocalPort()).isPositive();
            }
        }
    }
}

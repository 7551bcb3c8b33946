package io.kproxy.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The thread's contract without a namespace to enter (no root needed): one pinned thread, errors
 * passed back as documented, closing stops it. Entering a real namespace is testkit's
 * {@code NetnsThreadIT}.
 */
@Timeout(30)
class NetnsThreadTest {

    @Test
    void namespaceNamesAreChecked() {
        for (String bad : new String[] {"../etc", "a/b", "", "x".repeat(201), "sp ace"}) {
            assertThatThrownBy(() -> NetnsThread.enter(bad, "x")).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a network namespace name");
        }
    }

    @Test
    void aMissingNamespaceFailsWithTheErrno() {
        // ENOENT (2): open(2) of a name nobody created; errno is captured right after the call.
        assertThatThrownBy(() -> NetnsThread.enter("kp-no-such-netns-0", "x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot open /var/run/netns/kp-no-such-netns-0: errno 2");
    }

    @Test
    void everyTaskRunsOnTheSameNamedThread() {
        try (NetnsThread t = NetnsThread.current("unit")) {
            Thread first = t.call(Thread::currentThread);
            assertThat(first.getName()).isEqualTo("kproxy-unit");
            assertThat(first.isDaemon()).isTrue();
            assertThat(first).isNotSameAs(Thread.currentThread());
            assertThat(t.call(Thread::currentThread)).isSameAs(first);
            assertThat(t.submit(Thread::currentThread).join()).isSameAs(first);
            assertThat(t.description()).isEqualTo("current netns");
            assertThat(t.netns()).isEmpty();
        }
    }

    @Test
    void uncheckedFailuresAreRethrownAsIsAndCheckedOnesWrapped() {
        try (NetnsThread t = NetnsThread.current("unit")) {
            IllegalArgumentException iae = new IllegalArgumentException("bad");
            assertThatThrownBy(() -> t.call(() -> {
                throw iae;
            })).isSameAs(iae);
            AssertionError err = new AssertionError("assert");
            assertThatThrownBy(() -> t.call(() -> {
                throw err;
            })).isSameAs(err);
            IOException io = new IOException("io");
            assertThatThrownBy(() -> t.call(() -> {
                throw io;
            })).isInstanceOf(IllegalStateException.class)
                    .hasMessage("in current netns: java.io.IOException: io")
                    .hasCause(io);
            assertThatThrownBy(() -> t.submit(() -> {
                throw io;
            }).get()).isInstanceOf(ExecutionException.class).hasCause(io);
            assertThat(t.call(() -> "still serving")).isEqualTo("still serving");
        }
    }

    @Test
    void closeInterruptsTheRunningTaskAndRefusesNewOnes() throws InterruptedException {
        NetnsThread t = NetnsThread.current("unit");
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        t.submit(() -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return null;
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        t.close();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> t.call(() -> 1)).isInstanceOf(RejectedExecutionException.class);
        t.close();
    }
}

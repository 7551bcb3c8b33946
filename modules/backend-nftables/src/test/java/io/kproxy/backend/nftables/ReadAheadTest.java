package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.spi.KernelPort;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.netlink.NfTableObjects;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link NftBackend#willDiffFromKernel}: the read of the tables' names that the next
 * {@link NftBackend#diffFromKernel} uses starts beside the render, on its own thread, and what it
 * found or why it failed reaches that call.
 */
class ReadAheadTest {

    /** A reader that answers "no table" and notes the thread of each read, failing the ones listed. */
    private static final class Reader implements KernelTable.Reader {
        final List<String> threads = new CopyOnWriteArrayList<>();
        final List<Integer> failing;

        Reader(Integer... failing) {
            this.failing = List.of(failing);
        }

        @Override
        public NfTableObjects read(NftFamily family) throws KernelException {
            threads.add(Thread.currentThread().getName());
            if (failing.contains(threads.size())) {
                throw new KernelException(KernelException.Kind.RETRYABLE, "dump " + threads.size() + " failed");
            }
            return NfTableObjects.ABSENT;
        }
    }

    private static NftBackend backend(Reader reader) {
        KernelPort nothing = new KernelPort() {
            @Override
            public void apply(String text) {
            }

            @Override
            public void check(String text) {
            }
        };
        return new NftBackend(nothing, filters -> 0, Optional.of(reader), () -> { });
    }

    private static Plan plan(NftBackend b) {
        return b.render(RandomStates.state(new RandomStates(7).initial(20), NftStates.node()));
    }

    private static final SyncOptions NOW = SyncOptions.at(Instant.parse("2026-11-28T00:00:00Z"));

    @Test
    void theReadStartedBeforeTheRenderIsTheOneTheDiffUses() throws Exception {
        Reader reader = new Reader();
        NftBackend b = backend(reader);
        b.willDiffFromKernel();
        Plan plan = plan(b);
        // no table in the kernel: the full transaction that creates them
        assertThat(b.diffFromKernel(plan, NOW).text()).isEqualTo(b.diff(Optional.empty(), plan, NOW).text());
        assertThat(reader.threads).containsExactly("kproxy-kernel-read", "kproxy-kernel-read");
        // the next diff from the kernel, not told ahead, reads on its own thread
        b.diffFromKernel(plan, NOW);
        assertThat(reader.threads).hasSize(4).endsWith(Thread.currentThread().getName());
    }

    @Test
    void aFailedReadAheadIsThrownByTheDiff() {
        Reader reader = new Reader(1);
        NftBackend b = backend(reader);
        b.willDiffFromKernel();
        Plan plan = plan(b);
        assertThatThrownBy(() -> b.diffFromKernel(plan, NOW)).isInstanceOf(KernelException.class).hasMessageContaining("dump 1 failed");
    }

    @Test
    void aReadLeftByASyncThatFailedBeforeItsDiffIsReplaced() throws Exception {
        Reader reader = new Reader(1);
        NftBackend b = backend(reader);
        b.willDiffFromKernel(); // this sync's render fails: its diff never comes
        Plan plan = plan(b);
        for (int i = 0; i < 500 && reader.threads.isEmpty(); i++) {
            Thread.sleep(10); // its read has failed (the first read fails) before the next starts
        }
        assertThat(reader.threads).hasSize(1);
        b.willDiffFromKernel(); // the next sync's read
        assertThat(b.diffFromKernel(plan, NOW).text()).isEqualTo(b.diff(Optional.empty(), plan, NOW).text());
    }
}

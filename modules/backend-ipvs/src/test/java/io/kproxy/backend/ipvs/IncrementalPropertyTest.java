package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.Destination;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodeState;
import io.kproxy.testkit.SettableClock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded property: over random Service changes (dual-stack, TCP/UDP/SCTP, NodePorts, external and
 * load-balancer IPs that collide, traffic policies, affinity, terminating endpoints), the
 * incremental render equals the full render (text and hash); every transaction's text reads back
 * into the same operations; and the transactions applied one after another to the strict fake
 * kernel, with real servers busy at random so that some drain, leave it (once the drained ones
 * are idle and checked) equal to a full sync of the final state into an empty kernel.
 */
class IncrementalPropertyTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kproxy.backend.testkit.IncrementalProperty#seeds")
    void incrementalDiffsApplyToAFullSync(long seed) {
        IncrementalProperty.withSeed(seed, this::run);
    }

    private void run(long seed) {
        try {
            check(seed);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void check(long seed) throws Exception {
        RandomStates gen = new RandomStates(seed);
        Random random = new Random(seed ^ 0x5DEECE66DL);
        SettableClock clock = new SettableClock(T0);
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        IpvsBackend backend = IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), clock);
        TreeMap<String, States.PortSpec> specs = gen.initial(30);
        NodeState state = RandomStates.state(specs, IpvsStates.node());
        Plan plan = backend.render(state);
        Transaction first = backend.diff(Optional.empty(), plan, SyncOptions.at(T0));
        backend.apply(first);
        Plan applied = first.result();
        for (int step = 0; step < 25; step++) {
            busyAtRandom(kernel, random);
            clock.set(clock.instant().plusSeconds(random.nextInt(40)));
            gen.mutate(specs, 1000 + step * 3);
            NodeState next = RandomStates.state(specs, IpvsStates.node());
            Plan incremental = backend.renderIncremental(applied, next, IncrementalProperty.delta(state, next, random));
            Plan full = backend.render(next);
            assertThat(incremental.rulesetText()).as("incremental render at step %d", step).isEqualTo(full.rulesetText());
            assertThat(incremental.rulesetHash()).as("incremental hash at step %d", step).isEqualTo(full.rulesetHash());
            Transaction tx = backend.diff(Optional.of(applied), incremental, new SyncOptions(clock.instant(), random.nextInt(8) == 0));
            assertThat(IpvsDiff.text(OpParser.parse(tx.text()))).as("text read back at step %d", step).isEqualTo(tx.text());
            backend.apply(tx);
            applied = tx.result();
            state = next;
            plan = incremental;
        }
        idle(kernel);
        clock.set(clock.instant().plusSeconds(120));
        Transaction reap = backend.diff(Optional.of(applied), plan, SyncOptions.at(clock.instant()));
        backend.apply(reap);
        applied = reap.result();
        assertThat(backend.draining().due()).isEmpty();

        MemoryIpvsKernel fresh = new MemoryIpvsKernel();
        IpvsBackend other = IpvsProvider.create(IpvsSettings.DEFAULT, fresh, new MemoryKernelPort(), clock);
        other.apply(other.diff(Optional.empty(), other.render(state), SyncOptions.at(clock.instant())));
        assertThat(kernel.dump()).isEqualTo(fresh.dump());
        Transaction noop = backend.diff(Optional.of(applied), plan, SyncOptions.at(clock.instant()));
        assertThat(noop.isEmpty()).isTrue();
        assertThat(noop.result().nextDeferredWork()).isEmpty();
    }

    /** Gives a few real servers connections, so that removing them drains instead of deleting. */
    private static void busyAtRandom(MemoryIpvsKernel kernel, Random random) throws Exception {
        for (VirtualServer vs : kernel.virtualServers()) {
            for (Destination d : kernel.realServers(vs.key())) {
                if (random.nextInt(6) == 0) {
                    kernel.setConnections(vs.key(), d.server().address(), d.server().port(), random.nextInt(3), random.nextInt(2));
                }
            }
        }
    }

    private static void idle(MemoryIpvsKernel kernel) throws Exception {
        for (VirtualServer vs : kernel.virtualServers()) {
            List<Destination> ds = kernel.realServers(vs.key());
            for (Destination d : ds) {
                kernel.setConnections(vs.key(), d.server().address(), d.server().port(), 0, 0);
            }
        }
    }
}

package io.kproxy.backend.testkit;

import io.kproxy.model.ServicePortName;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * What the backends' seeded incremental property tests share: the seeds (overridable with
 * {@code -Dkproxy.seed}), the delta the fold would hand the renderer, and the wrapper that names
 * the seed of a failure. The rendering and the fake kernel stay with each backend's test.
 * Stateless; nothing here accepts or returns null.
 */
public final class IncrementalProperty {

    private IncrementalProperty() {
    }

    /** Twelve seeds from {@code kproxy.seed} (default 20261122), for {@code @MethodSource}. */
    public static long[] seeds() {
        long base = Long.getLong("kproxy.seed", 20261122L);
        long[] s = new long[12];
        for (int i = 0; i < s.length; i++) {
            s[i] = base + i * 7919L;
        }
        return s;
    }

    /**
     * The ports that differ between the two states, plus a few random unchanged IPv4 ones: a
     * delta may name more than what changed (a no-op update); it must never name less.
     */
    public static StateDelta delta(NodeState before, NodeState after, Random random) {
        Set<ServicePortName> changed = new HashSet<>();
        for (var pair : new FamilyState[][] {{before.ipv4(), after.ipv4()}, {before.ipv6(), after.ipv6()}}) {
            pair[0].ports().diff(pair[1].ports(), new PersistentMap.DiffVisitor<>() {
                @Override
                public void added(ServicePortName k, ServicePortState v) {
                    changed.add(k);
                }

                @Override
                public void removed(ServicePortName k, ServicePortState v) {
                    changed.add(k);
                }

                @Override
                public void changed(ServicePortName k, ServicePortState b, ServicePortState a) {
                    changed.add(k);
                }
            });
        }
        before.ipv4().ports().keySet().stream().filter(k -> random.nextInt(20) == 0).forEach(changed::add);
        return new StateDelta(changed, Set.of(), false, false);
    }

    /** Runs the property with the seed; a failure is rethrown naming the seed to rerun with. */
    public static void withSeed(long seed, LongConsumer property) {
        try {
            property.accept(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("property failed with seed " + seed + " (rerun with -Dkproxy.seed=" + seed + ")", e);
        }
    }
}

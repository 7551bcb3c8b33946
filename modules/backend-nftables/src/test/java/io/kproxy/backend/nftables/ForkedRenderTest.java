package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.model.IpFamily;
import io.kproxy.state.NodeState;
import org.junit.jupiter.api.Test;

/** A full render split over two cores ({@link Forked}) makes the plan the single-threaded render makes. */
class ForkedRenderTest {

    @Test
    void theForkedRenderEqualsTheSequentialOne() {
        for (long seed : new long[] {1, 2, 3}) {
            // odd and even counts: the halves differ by one port or not at all; random specs share
            // cluster IPs and external IPs between ports, so claims cross the halves' boundary
            NodeState state = RandomStates.state(new RandomStates(seed).initial(300 + (int) seed), NftStates.node());
            FamilyPlan sequential = PlanRenderer.renderFamily(state, IpFamily.IPV4, false);
            FamilyPlan forked = PlanRenderer.renderFamily(state, IpFamily.IPV4, true);
            assertThat(forked.fragments().size()).as("seed %d", seed).isGreaterThan(150);
            assertThat(forked).as("seed %d", seed).isEqualTo(sequential);
            assertThat(forked.elements()).isEqualTo(sequential.elements());
            assertThat(forked.digestSum()).isEqualTo(sequential.digestSum());
        }
    }

    @Test
    void theFullRenderEqualsItsFragmentsAddedOneAtATime() {
        for (long seed : new long[] {4, 5}) {
            // the full render builds its maps from sorted runs (claims merged across the halves);
            // FamilyPlan.with, which every incremental render uses, inserts and claims one by one
            NodeState state = RandomStates.state(new RandomStates(seed).initial(300), NftStates.node());
            for (boolean fork : new boolean[] {false, true}) {
                FamilyPlan full = PlanRenderer.renderFamily(state, IpFamily.IPV4, fork);
                FamilyPlan stepwise = FamilyPlan.empty(full.family(), full.base()).withSlots(full.slots());
                for (PortFragment p : full.fragments().values()) {
                    stepwise = stepwise.with(p.name(), p);
                }
                assertThat(full.elements().values()).as("seed %d", seed).anyMatch(c -> !c.rest().isEmpty());
                assertThat(full).as("seed %d fork %s", seed, fork).isEqualTo(stepwise);
            }
        }
    }

    @Test
    void aRenderFromTwoThousandPortsOnTwoProcessorsForks() {
        assertThat(Forked.worthIt(Forked.FROM_PORTS - 1)).isFalse();
        assertThat(Forked.worthIt(Forked.FROM_PORTS)).isEqualTo(Runtime.getRuntime().availableProcessors() > 1);
    }

    @Test
    void theHelpersFailureReachesTheCaller() {
        Forked<String> f = Forked.start(() -> {
            throw new IllegalStateException("boom");
        });
        assertThatThrownBy(f::join).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        assertThat(Forked.start(() -> "done").join()).isEqualTo("done");
    }
}

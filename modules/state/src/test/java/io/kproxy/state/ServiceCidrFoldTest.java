package io.kproxy.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.Cidr;
import io.kproxy.model.Json;
import io.kproxy.testkit.ServiceCidrFixture;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The fold of ServiceCIDR observations and the service ranges the node projection exposes: the
 * union of the ServiceCIDRs' {@code spec.cidrs} while any is held, the configured
 * {@code kproxy.serviceCIDRs} otherwise.
 */
class ServiceCidrFoldTest {

    private static final Json.Obj CONFIGURED = Json.obj("mode", Json.of("nftables"), "kproxy",
            Json.obj("serviceCIDRs", Json.arr(Json.of("172.30.0.0/16"), Json.of("fd00:172:30::/112"))));

    private static FoldedState configured() {
        return Logs.fold(Logs.synced(CONFIGURED));
    }

    private static List<String> ranges(FoldedState s) {
        return s.node().settings().serviceCIDRs().stream().map(Cidr::toString).toList();
    }

    @Test
    void withoutServiceCidrsTheConfiguredRangesAreInForce() {
        assertThat(ranges(configured())).containsExactly("172.30.0.0/16", "fd00:172:30::/112");
        assertThat(ranges(Logs.fold(Logs.synced()))).isEmpty();
    }

    @Test
    void observeUpdateDelete() {
        FoldedState s = configured();
        FoldStep added = Logs.step(s, ServiceCidrFixture.serviceCidr("kubernetes", "10.96.0.0/16", "fd00:10:96::/112").observed());
        assertThat(ranges(added.state())).containsExactly("10.96.0.0/16", "fd00:10:96::/112");
        assertThat(added.delta().settingsChanged()).isTrue();
        assertThat(added.delta().changedPorts()).isEmpty();
        assertThat(added.state().cluster().serviceCidrOrigins()).containsOnlyKeys("kubernetes");
        assertThat(added.state().cluster().serviceCidrOrigins().get("kubernetes")).isEqualTo(new Origin(added.state().offset(), "1"));

        FoldStep updated = Logs.step(added.state(),
                ServiceCidrFixture.serviceCidr("kubernetes", "10.96.0.0/12").resourceVersion("2").observed());
        assertThat(ranges(updated.state())).containsExactly("10.96.0.0/12");

        FoldStep second = Logs.step(updated.state(), ServiceCidrFixture.serviceCidr("extra-v4", "10.200.0.0/24").observed());
        assertThat(ranges(second.state())).containsExactly("10.96.0.0/12", "10.200.0.0/24");

        FoldStep gone = Logs.step(second.state(), new ServiceCIDRDeleted("kubernetes", "3", false));
        assertThat(ranges(gone.state())).containsExactly("10.200.0.0/24");
        FoldStep last = Logs.step(gone.state(), new ServiceCIDRDeleted("extra-v4", "", true));
        assertThat(ranges(last.state())).as("back to the configured ranges").containsExactly("172.30.0.0/16", "fd00:172:30::/112");
        assertThat(last.state().node()).isEqualTo(s.node());
        // deleting what is not held changes nothing
        assertThat(Logs.step(last.state(), new ServiceCIDRDeleted("never", "", true)).delta()).isEqualTo(StateDelta.EMPTY);
    }

    @Test
    void aRangeListedByTwoServiceCidrsStaysWhileEitherExists() {
        FoldedState s = Logs.fold(Logs.synced(CONFIGURED).then(ServiceCidrFixture.serviceCidr("a", "10.96.0.0/16").observed(),
                ServiceCidrFixture.serviceCidr("b", "10.96.0.0/16", "fd00::/112").observed()));
        assertThat(ranges(s)).containsExactly("10.96.0.0/16", "fd00::/112");
        assertThat(ranges(Logs.step(s, new ServiceCIDRDeleted("a", "", false)).state())).containsExactly("10.96.0.0/16", "fd00::/112");
    }

    @Test
    void rangesEqualToTheConfiguredOnesChangeNothingDownstream() {
        FoldedState s = configured();
        FoldStep step = Logs.step(s, ServiceCidrFixture.serviceCidr("kubernetes", "172.30.0.0/16", "fd00:172:30::/112").observed());
        assertThat(step.delta()).isEqualTo(StateDelta.EMPTY);
        assertThat(step.state().node().settings()).isEqualTo(s.node().settings());
    }

    @Test
    void relistDropsVanishedServiceCidrs() {
        FoldedState s = Logs.fold(Logs.synced(CONFIGURED).then(ServiceCidrFixture.serviceCidr("kubernetes", "10.96.0.0/16").observed(),
                ServiceCidrFixture.serviceCidr("extra", "10.200.0.0/24").observed()));
        FoldStep relisted = Logs.step(s, new SourceRelisted(ResourceKind.SERVICE_CIDR, "9", Set.of("kubernetes")));
        assertThat(relisted.state().cluster().serviceCidrsSynced()).as("a relist is a sync barrier too").isTrue();
        assertThat(relisted.state().cluster().serviceCidrOrigins()).containsOnlyKeys("kubernetes");
        assertThat(ranges(relisted.state())).containsExactly("10.96.0.0/16");
        FoldStep none = Logs.step(relisted.state(), new SourceRelisted(ResourceKind.SERVICE_CIDR, "10", Set.of()));
        assertThat(ranges(none.state())).containsExactly("172.30.0.0/16", "fd00:172:30::/112");
        // a relist of another kind leaves the ServiceCIDRs alone
        assertThat(Logs.step(s, new SourceRelisted(ResourceKind.SERVICE, "11", Set.of())).state().cluster().serviceCidrOrigins())
                .containsOnlyKeys("kubernetes", "extra");
    }

    @Test
    void theServiceCidrBarrierNeverHoldsProgrammingBack() {
        FoldedState s = Logs.fold(io.kproxy.testkit.EventSequence.create().config(Logs.NODE, CONFIGURED)
                .then(new SourceSynced(ResourceKind.SERVICE, "1"), new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")));
        assertThat(s.node().synced()).as("synced without any ServiceCIDR barrier").isTrue();
        assertThat(s.cluster().serviceCidrsSynced()).isFalse();
        FoldStep barrier = Logs.step(s, new SourceSynced(ResourceKind.SERVICE_CIDR, "2"));
        assertThat(barrier.state().cluster().serviceCidrsSynced()).isTrue();
        assertThat(barrier.delta()).isEqualTo(StateDelta.EMPTY);
        assertThat(barrier.state().node()).isEqualTo(s.node());
        assertThat(FoldedState.fromSnapshot(barrier.state().toSnapshot()).cluster().serviceCidrsSynced()).isTrue();
        assertThat(ranges(barrier.state())).as("a synced, empty list keeps the configured ranges").containsExactly("172.30.0.0/16",
                "fd00:172:30::/112");
    }

    @Test
    void unparsableRangesAreSkippedAndReported() {
        FoldStep step = Logs.step(configured(), ServiceCidrFixture.serviceCidr("odd", "10.96.0.0/16", "not-a-cidr", " 10.97.0.0/16").observed());
        assertThat(ranges(step.state())).containsExactly("10.96.0.0/16", "10.97.0.0/16");
        assertThat(step.rejections()).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo("ServiceCIDR");
            assertThat(r.field()).isEqualTo("spec.cidrs[1]");
            assertThat(r.reason()).contains("range ignored");
        });
        FoldStep empty = Logs.step(configured(), ServiceCidrFixture.serviceCidr("empty").observed());
        assertThat(empty.rejections()).extracting(Rejection::field).containsExactly("spec.cidrs");
        assertThat(ranges(empty.state())).as("a held ServiceCIDR without ranges: no service ranges, as upstream").isEmpty();
    }

    @Test
    void snapshotsKeepTheServiceCidrs() {
        FoldedState s = Logs.fold(Logs.synced(CONFIGURED).then(ServiceCidrFixture.serviceCidr("kubernetes", "10.96.0.0/16", "fd00::/112")
                .resourceVersion("7").observed(), ServiceCidrFixture.serviceCidr("extra", "10.200.0.0/24").observed()));
        FoldedState back = FoldedState.fromSnapshot(s.toSnapshot());
        assertThat(back).isEqualTo(s);
        assertThat(back.cluster().serviceCidrOrigins()).isEqualTo(s.cluster().serviceCidrOrigins());
        assertThat(ranges(back)).containsExactly("10.96.0.0/16", "10.200.0.0/24", "fd00::/112");
        assertThat(back.node()).isEqualTo(s.node());
    }
}

package io.kproxy.state;

import static io.kproxy.state.Logs.hostPorts;
import static io.kproxy.state.Logs.tcp;
import static io.kproxy.state.Logs.udp;
import static io.kproxy.state.Logs.v4;
import static io.kproxy.state.Logs.v6;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.model.Json;
import io.kproxy.model.ServicePortName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mirrors upstream's {@code TestUpdateEndpointsMap} ({@code pkg/proxy/endpoints_test.go}) and the
 * EndpointSlice cache tests ({@code endpointslicecache_test.go}): slices folded into per-port
 * endpoint lists, with the change set and {@code ConntrackCleanupRequired} of each step.
 */
class UpdateEndpointsMapTest {

    static final String NS = "ns1";

    static EndpointSliceFixture slice(String name, String service) {
        return EndpointSliceFixture.slice(NS, name, service);
    }

    /** Services ep1 (one unnamed UDP port), ep2 (named TCP p11/p12) and ep3 (UDP p13), all synced, no endpoints. */
    static FoldedState base() {
        return Logs.fold(Logs.synced().then(
                ServiceFixture.service(NS, "ep1").clusterIP("172.30.0.1").port("", 11, "UDP").observed(),
                ServiceFixture.service(NS, "ep2").clusterIP("172.30.0.2").port("p11", 11, "TCP").port("p12", 12, "TCP").observed(),
                ServiceFixture.service(NS, "ep3").ipFamilies("IPv4", "IPv6").clusterIP("172.30.0.3").clusterIP("fd00::3")
                        .port("p13", 13, "UDP").observed()));
    }

    static final ServicePortName EP1 = udp(NS, "ep1", "");
    static final ServicePortName EP2_P11 = tcp(NS, "ep2", "p11");
    static final ServicePortName EP2_P12 = tcp(NS, "ep2", "p12");
    static final ServicePortName EP3 = udp(NS, "ep3", "p13");

    @Test
    void nothingToSomethingToNothing() {
        FoldedState s = base();
        assertThat(v4(s, EP1).endpoints()).isEmpty();
        assertThat(v4(s, EP1).hasEndpoints()).isFalse();
        List<FoldStep> steps = Logs.steps(s, slice("ep1-a", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").observed(),
                new EndpointSliceDeleted(slice("ep1-a", "ep1").ref(), "", false));
        FoldStep add = steps.get(0);
        assertThat(hostPorts(v4(add.state(), EP1).endpoints())).containsExactly("10.1.1.1:11");
        assertThat(v4(add.state(), EP1).hasEndpoints()).isTrue();
        assertThat(add.delta().changedPorts()).containsExactly(EP1);
        // A UDP port that gains its first serving endpoint: flows blackholed before must go.
        assertThat(add.delta().conntrackCleanup()).containsExactly(EP1);
        FoldStep del = steps.get(1);
        assertThat(v4(del.state(), EP1).endpoints()).isEmpty();
        assertThat(del.delta().changedPorts()).containsExactly(EP1);
        assertThat(del.delta().conntrackCleanup()).containsExactly(EP1);
    }

    @Test
    void unchangedSliceIsNoChange() {
        EndpointSliceFixture a = slice("ep1-a", "ep1").port("", 11, "UDP").endpoint("10.1.1.1");
        FoldedState s = Logs.step(base(), a.observed()).state();
        FoldStep again = Logs.step(s, a.resourceVersion("2").observed());
        assertThat(again.delta().isEmpty()).isTrue();
        assertThat(again.state().cluster().sliceOrigins(EP1.service()).values()).singleElement()
                .satisfies(o -> assertThat(o.resourceVersion()).isEqualTo("2"));
    }

    @Test
    void namedPortsMergeAcrossSlicesSortedByEndpointText() {
        FoldedState s = Logs.steps(base(),
                slice("ep2-a", "ep2").port("p11", 11, "TCP").port("p12", 12, "TCP").endpoint("10.1.1.10").endpoint("10.1.1.2").observed(),
                slice("ep2-b", "ep2").port("p11", 11, "TCP").endpoint("10.1.1.3").node(Logs.NODE).observed()).getLast().state();
        assertThat(hostPorts(v4(s, EP2_P11).endpoints())).containsExactly("10.1.1.10:11", "10.1.1.2:11", "10.1.1.3:11");
        assertThat(hostPorts(v4(s, EP2_P12).endpoints())).containsExactly("10.1.1.10:12", "10.1.1.2:12");
        assertThat(v4(s, EP2_P11).endpoints()).filteredOn(Endpoint::local).extracting(Endpoint::hostPort).containsExactly("10.1.1.3:11");
    }

    @Test
    void renamedPortLosesItsEndpoints() {
        FoldedState s = Logs.step(base(), slice("ep2-a", "ep2").port("p11", 11, "TCP").endpoint("10.1.1.1").observed()).state();
        FoldStep renamed = Logs.step(s, slice("ep2-a", "ep2").port("p11-2", 11, "TCP").endpoint("10.1.1.1").resourceVersion("2").observed());
        assertThat(v4(renamed.state(), EP2_P11).endpoints()).isEmpty();
        assertThat(renamed.delta().changedPorts()).containsExactly(EP2_P11);
        assertThat(renamed.delta().conntrackCleanup()).isEmpty(); // TCP
    }

    @Test
    void renumberedPortChangesTheEndpointsAndCleansUdp() {
        FoldedState s = Logs.step(base(), slice("ep1-a", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").observed()).state();
        FoldStep renumbered = Logs.step(s, slice("ep1-a", "ep1").port("", 22, "UDP").endpoint("10.1.1.1").resourceVersion("2").observed());
        assertThat(hostPorts(v4(renumbered.state(), EP1).endpoints())).containsExactly("10.1.1.1:22");
        assertThat(renumbered.delta().conntrackCleanup()).containsExactly(EP1);
    }

    @Test
    void duplicateEndpointsKeepTheFirstUnlessALaterOneIsLocal() {
        FoldedState s = Logs.steps(base(),
                slice("ep1-a", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").ready(false).serving(true).terminating(true).observed(),
                slice("ep1-b", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").observed(),
                slice("ep1-c", "ep1").port("", 11, "UDP").endpoint("10.1.1.2").node("other").observed(),
                slice("ep1-d", "ep1").port("", 11, "UDP").endpoint("10.1.1.2").node(Logs.NODE).ready(false).observed()).getLast().state();
        List<Endpoint> eps = v4(s, EP1).endpoints();
        assertThat(hostPorts(eps)).containsExactly("10.1.1.1:11", "10.1.1.2:11");
        assertThat(eps.get(0).ready()).as("first slice (by name) wins").isFalse();
        assertThat(eps.get(1).local()).as("a local duplicate wins").isTrue();
        assertThat(eps.get(1).ready()).isFalse();
    }

    @Test
    void conditionsAndHintsAreRead() {
        FoldedState s = Logs.step(base(), slice("ep1-a", "ep1").port("", 11, "UDP")
                .endpoint("10.1.1.1").zoneHints("zone-a").nodeHints("n1")
                .endpoint("10.1.1.2").ready(false).serving(true).terminating(true)
                .endpoint("10.1.1.3").ready(false).serving(false).observed()).state();
        List<Endpoint> eps = v4(s, EP1).endpoints();
        assertThat(eps.get(0).zoneHints()).containsExactly("zone-a");
        assertThat(eps.get(0).nodeHints()).containsExactly("n1");
        assertThat(eps.get(1).serving()).isTrue();
        assertThat(eps.get(1).terminating()).isTrue();
        assertThat(eps.get(2).serving()).isFalse();
        assertThat(hostPorts(v4(s, EP1).clusterEndpoints())).containsExactly("10.1.1.1:11");
    }

    @Test
    void udpEndpointThatStopsServingNeedsCleanupButAReadyChangeAloneDoesNot() {
        FoldedState s = Logs.step(base(),
                slice("ep1-a", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").endpoint("10.1.1.2").observed()).state();
        FoldStep terminating = Logs.step(s, slice("ep1-a", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").endpoint("10.1.1.2")
                .ready(false).serving(true).terminating(true).resourceVersion("2").observed());
        assertThat(terminating.delta().changedPorts()).containsExactly(EP1);
        assertThat(terminating.delta().conntrackCleanup()).isEmpty();
        FoldStep gone = Logs.step(terminating.state(), slice("ep1-a", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").endpoint("10.1.1.2")
                .ready(false).serving(false).terminating(true).resourceVersion("3").observed());
        assertThat(gone.delta().conntrackCleanup()).containsExactly(EP1);
    }

    @Test
    void slicesAreIgnoredWithoutLabelOrWithFqdnOrForeignFamily() {
        FoldedState s = base();
        FoldStep unlabelled = Logs.step(s, EndpointSliceFixture.unlabelled(NS, "x").port("", 11, "UDP").endpoint("10.1.1.1").observed());
        assertThat(unlabelled.delta().isEmpty()).isTrue();
        assertThat(unlabelled.rejections()).singleElement().satisfies(r -> assertThat(r.field()).contains("kubernetes.io/service-name"));
        assertThat(unlabelled.state().cluster().endpointSliceCount()).isZero();

        FoldStep fqdn = Logs.step(s, slice("ep1-fqdn", "ep1").addressType("FQDN").port("", 11, "UDP").endpoint("example.com").observed());
        assertThat(fqdn.delta().isEmpty()).isTrue();
        assertThat(fqdn.rejections()).isEmpty();

        FoldStep v6 = Logs.step(s, slice("ep3-v6", "ep3").addressType("IPv6").port("p13", 13, "UDP").endpoint("fd00::10")
                .endpoint("10.9.9.9").observed());
        assertThat(v4(v6.state(), EP3).endpoints()).isEmpty();
        assertThat(hostPorts(v6(v6.state(), EP3).endpoints())).containsExactly("[fd00::10]:13");
        assertThat(v6.rejections()).singleElement().satisfies(r -> assertThat(r.field()).isEqualTo("endpoints[1].addresses[0]"));
    }

    @Test
    void badSlicePortsAndEndpointsAreSkippedAndReported() {
        Json.Obj object = slice("ep2-a", "ep2").port("p11", 11, "TCP").rawPort(Json.obj("port", Json.of(12), "protocol", Json.of("TCP")))
                .rawPort(Json.obj("name", Json.of("p12"), "protocol", Json.of("TCP"))).endpoint("10.1.1.1").endpoint().endpoint("10.1.1.x")
                .build();
        FoldStep step = Logs.step(base(), new EndpointSliceObserved(slice("ep2-a", "ep2").ref(), "1", object));
        assertThat(hostPorts(v4(step.state(), EP2_P11).endpoints())).containsExactly("10.1.1.1:11");
        assertThat(v4(step.state(), EP2_P12).endpoints()).isEmpty();
        assertThat(step.rejections()).extracting(Rejection::field).containsExactly("ports[1].name", "ports[2].port",
                "endpoints[1].addresses", "endpoints[2].addresses[0]");
    }

    @Test
    void sliceMovingToAnotherServiceUpdatesBoth() {
        FoldedState s = Logs.step(base(), slice("moving", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").observed()).state();
        FoldStep moved = Logs.step(s, slice("moving", "ep3").port("p13", 13, "UDP").endpoint("10.1.1.1").resourceVersion("2").observed());
        assertThat(v4(moved.state(), EP1).endpoints()).isEmpty();
        assertThat(hostPorts(v4(moved.state(), EP3).endpoints())).containsExactly("10.1.1.1:13");
        assertThat(moved.delta().changedPorts()).containsExactlyInAnyOrder(EP1, EP3);
        assertThat(moved.state().cluster().sliceOrigins(EP1.service())).isEmpty();
        assertThat(moved.state().cluster().sliceOrigins(EP3.service())).containsOnlyKeys(slice("moving", "ep3").ref());
    }

    @Test
    void slicesBeforeTheirServiceAreUsedWhenItArrives() {
        FoldedState s = Logs.fold(Logs.synced().then(slice("early", "late").port("http", 80, "TCP").endpoint("10.2.2.2").observed()));
        assertThat(s.node().ipv4().ports()).isEmpty();
        FoldStep svc = Logs.step(s, ServiceFixture.service(NS, "late").clusterIP("172.30.9.9").port("http", 80, "TCP").observed());
        assertThat(hostPorts(v4(svc.state(), tcp(NS, "late", "http")).endpoints())).containsExactly("10.2.2.2:80");
    }

    @Test
    void localEndpointsNeedTheConfiguredNodeName() {
        FoldedState s = Logs.step(base(), slice("ep1-a", "ep1").port("", 11, "UDP").endpoint("10.1.1.1").node(Logs.NODE).observed()).state();
        assertThat(v4(s, EP1).endpoints().getFirst().local()).isTrue();
        FoldStep renamed = Logs.step(s, new io.kproxy.events.ConfigRecorded(new io.kproxy.model.NodeName("other-node"), Json.Obj.EMPTY));
        assertThat(v4(renamed.state(), EP1).endpoints().getFirst().local()).isFalse();
        assertThat(renamed.delta().changedPorts()).containsExactly(EP1);
        assertThat(renamed.delta().nodeChanged()).isTrue();
    }
}

package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.FoldedState;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The split of a ruleset into per-Service parts is complete and exact: deleting any one Service
 * changes exactly that Service's part (only removed lines) and nothing else, in both backends'
 * languages, for Services of every kind.
 */
class RulesetBlocksTest {

    /** threeServices plus affinity, dual-stack and source-range Services. */
    static TestLog variety() {
        TestLog l = TestLog.threeServices();
        l.at("00:00:05", ServiceFixture.service("ns", "aff").clusterIP("172.30.0.13").port("http", 80, "TCP").sessionAffinity(600)
                .resourceVersion("40").observed());
        l.at("00:00:05.100", EndpointSliceFixture.slice("ns", "aff-1", "aff").port("http", 8080, "TCP").endpoint("10.0.1.30").endpoint("10.0.1.31")
                .resourceVersion("41").observed());
        l.at("00:00:05.200", ServiceFixture.service("ns", "dual").clusterIP("172.30.0.14").clusterIP("fd00:172:30::14").ipFamilies("IPv4", "IPv6")
                .port("grpc", 9090, "TCP", 30090).type("NodePort").resourceVersion("42").observed());
        l.at("00:00:05.300", EndpointSliceFixture.slice("ns", "dual-4", "dual").port("grpc", 9090, "TCP").endpoint("10.0.1.40").resourceVersion("43")
                .observed());
        l.at("00:00:05.400", EndpointSliceFixture.slice("ns", "dual-6", "dual").addressType("IPv6").port("grpc", 9090, "TCP").endpoint("fd00:10::40")
                .resourceVersion("44").observed());
        l.at("00:00:05.500", ServiceFixture.service("other", "fw").type("LoadBalancer").clusterIP("172.30.0.15").port("https", 443, "TCP", 30443)
                .loadBalancerIngress("198.51.100.6").loadBalancerSourceRanges("203.0.113.0/25").resourceVersion("45").observed());
        l.at("00:00:05.600", EndpointSliceFixture.slice("other", "fw-1", "fw").port("https", 8443, "TCP").endpoint("10.0.1.50").resourceVersion("46")
                .observed());
        return l;
    }

    @ParameterizedTest
    @ValueSource(strings = {"nftables", "iptables"})
    void deletingOneServiceChangesExactlyItsPart(String mode) {
        TestLog base = variety();
        long before = base.log.nextOffset() - 1;
        List<ServiceRef> services;
        FoldedState state;
        try (History h = History.of(base.log)) {
            state = h.state(before);
            services = List.copyOf(state.cluster().services());
        }
        assertThat(services).hasSize(7);
        for (ServiceRef s : services) {
            TestLog l = variety();
            List<ClusterEvent> deletes = new ArrayList<>();
            deletes.add(new ServiceDeleted(s, "", false));
            for (EndpointSliceRef slice : state.cluster().sliceOrigins(s).keySet()) {
                deletes.add(new EndpointSliceDeleted(slice, "", false));
            }
            for (ClusterEvent e : deletes) {
                l.at("00:01:00", e);
            }
            try (History h = History.of(l.log)) {
                String diff = h.diff(h.atOffset(before), h.atOffset(l.log.nextOffset() - 1), Optional.of(mode));
                List<String> parts = diff.lines().filter(x -> x.startsWith("== ")).toList();
                if (state.cluster().serviceSkipReason(s).isPresent()) {
                    assertThat(diff).as("%s has no rules", s).contains("no rule changed");
                    continue;
                }
                assertThat(parts).as("%s in %s:%n%s", s, mode, diff).containsExactly("== " + s);
                assertThat(diff).contains("node-wide rules unchanged");
                assertThat(diff.lines().filter(x -> x.startsWith("+ "))).as("%s: only removals", s).isEmpty();
                assertThat(diff).contains("caused by:\n  #" + (before + 1) + " 2026-01-01T00:01:00.000Z ServiceDeleted " + s);
            }
        }
    }
}

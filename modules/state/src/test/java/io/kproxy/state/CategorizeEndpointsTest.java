package io.kproxy.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.model.IpAddress;
import io.kproxy.model.Port;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Mirrors upstream's {@code TestCategorizeEndpoints} ({@code pkg/proxy/topology_test.go}) as of
 * the release where hints are honoured whenever complete and PreferSameNode is GA: the same
 * endpoint sets and expectations, rewritten as our own table. "n/a" means the service does not
 * use that kind of endpoints (upstream's nil).
 */
class CategorizeEndpointsTest {

    static final String NODE = "test-node";

    /** A service port: traffic policies and whether it is externally accessible. */
    record Svc(boolean itpLocal, boolean etpLocal, boolean external) {
        boolean usesCluster() {
            return !itpLocal || external;
        }

        boolean usesLocal() {
            return itpLocal || (etpLocal && external);
        }
    }

    static final Svc CLUSTER = new Svc(false, false, false);
    static final Svc ITP_LOCAL = new Svc(true, false, false);
    static final Svc ETP_LOCAL_NODEPORT = new Svc(false, true, true);
    static final Svc ITP_LOCAL_NODEPORT = new Svc(true, false, true);
    static final Svc BOTH_LOCAL_NODEPORT = new Svc(true, true, true);
    static final Svc ETP_LOCAL_INTERNAL_ONLY = new Svc(false, true, false);

    /** Endpoint builder: "10.1.2.3:80" + flags. */
    static Ep ep(String hostPort) {
        return new Ep(hostPort, true, true, false, false, Set.of(), Set.of());
    }

    record Ep(String hostPort, boolean ready, boolean serving, boolean terminating, boolean local, Set<String> zones, Set<String> nodes) {
        Ep zones(String... z) {
            return new Ep(hostPort, ready, serving, terminating, local, Set.of(z), nodes);
        }

        Ep nodes(String... n) {
            return new Ep(hostPort, ready, serving, terminating, local, zones, Set.of(n));
        }

        Ep notReady() {
            return new Ep(hostPort, false, false, false, local, zones, nodes);
        }

        Ep servingTerminating() {
            return new Ep(hostPort, false, true, true, local, zones, nodes);
        }

        Ep onNode() {
            return new Ep(hostPort, ready, serving, terminating, true, zones, nodes);
        }

        Endpoint toEndpoint() {
            int colon = hostPort.lastIndexOf(':');
            return new Endpoint(IpAddress.parse(hostPort.substring(0, colon)), new Port(Integer.parseInt(hostPort.substring(colon + 1))),
                    local, ready, serving, terminating, local ? NODE : "other-node", zones, nodes);
        }
    }

    record Case(String name, String zone, Svc svc, List<Ep> endpoints, Set<String> cluster, Set<String> local, boolean hasAny) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Set<String> NA = null;

    static Set<String> set(String... s) {
        return Set.of(s);
    }

    static Stream<Case> cases() {
        List<Ep> abca = List.of(ep("10.1.2.3:80").zones("zone-a"), ep("10.1.2.4:80").zones("zone-b"), ep("10.1.2.5:80").zones("zone-c"),
                ep("10.1.2.6:80").zones("zone-a"));
        return Stream.of(
                new Case("hints honoured: endpoints of this zone", "zone-a", CLUSTER, abca, set("10.1.2.3:80", "10.1.2.6:80"), NA, true),
                new Case("externalTrafficPolicy: Local, topology ignored for Local endpoints", "zone-a", ETP_LOCAL_NODEPORT,
                        List.of(ep("10.1.2.3:80").zones("zone-a").onNode(), ep("10.1.2.4:80").zones("zone-b").onNode(),
                                ep("10.1.2.5:80").zones("zone-c"), ep("10.1.2.6:80").zones("zone-a")),
                        set("10.1.2.3:80", "10.1.2.6:80"), set("10.1.2.3:80", "10.1.2.4:80"), true),
                new Case("internalTrafficPolicy: Local, topology ignored for Local endpoints", "zone-a", ITP_LOCAL_NODEPORT,
                        List.of(ep("10.1.2.3:80").zones("zone-a").onNode(), ep("10.1.2.4:80").zones("zone-b").onNode(),
                                ep("10.1.2.5:80").zones("zone-c"), ep("10.1.2.6:80").zones("zone-a")),
                        set("10.1.2.3:80", "10.1.2.6:80"), set("10.1.2.3:80", "10.1.2.4:80"), true),
                new Case("empty node labels", "", CLUSTER, List.of(ep("10.1.2.3:80").zones("zone-a")), set("10.1.2.3:80"), NA, true),
                new Case("node in different zone, no endpoint filtering", "zone-b", CLUSTER, List.of(ep("10.1.2.3:80").zones("zone-a")),
                        set("10.1.2.3:80"), NA, true),
                new Case("unready endpoint", "zone-a", CLUSTER,
                        List.of(ep("10.1.2.3:80").zones("zone-a"), ep("10.1.2.4:80").zones("zone-b"), ep("10.1.2.5:80").zones("zone-c"),
                                ep("10.1.2.6:80").zones("zone-a").notReady()),
                        set("10.1.2.3:80"), NA, true),
                new Case("only unready endpoints in same zone (should not filter)", "zone-a", CLUSTER,
                        List.of(ep("10.1.2.3:80").zones("zone-a").notReady(), ep("10.1.2.4:80").zones("zone-b"),
                                ep("10.1.2.5:80").zones("zone-c"), ep("10.1.2.6:80").zones("zone-a").notReady()),
                        set("10.1.2.4:80", "10.1.2.5:80"), NA, true),
                new Case("missing hints, no filtering applied", "zone-a", CLUSTER,
                        List.of(ep("10.1.2.3:80").zones("zone-a"), ep("10.1.2.4:80").zones("zone-b"), ep("10.1.2.5:80"),
                                ep("10.1.2.6:80").zones("zone-a")),
                        set("10.1.2.3:80", "10.1.2.4:80", "10.1.2.5:80", "10.1.2.6:80"), NA, true),
                new Case("multiple hints per endpoint, filtering includes any endpoint with zone included", "zone-c", CLUSTER,
                        List.of(ep("10.1.2.3:80").zones("zone-a", "zone-b", "zone-c"), ep("10.1.2.4:80").zones("zone-b", "zone-c"),
                                ep("10.1.2.5:80").zones("zone-b", "zone-d"), ep("10.1.2.6:80").zones("zone-c")),
                        set("10.1.2.3:80", "10.1.2.4:80", "10.1.2.6:80"), NA, true),
                new Case("conflicting topology and localness require merging allEndpoints", "zone-a", ETP_LOCAL_NODEPORT,
                        List.of(ep("10.0.0.0:80").zones("zone-a").onNode(), ep("10.0.0.1:80").zones("zone-b").onNode(),
                                ep("10.0.0.2:80").zones("zone-a"), ep("10.0.0.3:80").zones("zone-b")),
                        set("10.0.0.0:80", "10.0.0.2:80"), set("10.0.0.0:80", "10.0.0.1:80"), true),
                new Case("internalTrafficPolicy: Local, with empty endpoints", "", ITP_LOCAL, List.of(), NA, set(), false),
                new Case("internalTrafficPolicy: Local, but all endpoints are remote", "", ITP_LOCAL,
                        List.of(ep("10.0.0.0:80"), ep("10.0.0.1:80")), NA, set(), true),
                new Case("internalTrafficPolicy: Local, all endpoints are local", "", ITP_LOCAL,
                        List.of(ep("10.0.0.0:80").onNode(), ep("10.0.0.1:80").onNode()), NA, set("10.0.0.0:80", "10.0.0.1:80"), true),
                new Case("internalTrafficPolicy: Local, some endpoints are local", "", ITP_LOCAL,
                        List.of(ep("10.0.0.0:80").onNode(), ep("10.0.0.1:80")), NA, set("10.0.0.0:80"), true),
                new Case("Cluster traffic policy, endpoints not Ready", "", CLUSTER,
                        List.of(ep("10.0.0.0:80").notReady(), ep("10.0.0.1:80").notReady()), set(), NA, false),
                new Case("Cluster traffic policy, some endpoints are Ready", "", CLUSTER,
                        List.of(ep("10.0.0.0:80").notReady(), ep("10.0.0.1:80")), set("10.0.0.1:80"), NA, true),
                new Case("Cluster traffic policy, all endpoints are terminating", "", CLUSTER,
                        List.of(ep("10.0.0.0:80").servingTerminating().onNode(), ep("10.0.0.1:80").servingTerminating()),
                        set("10.0.0.0:80", "10.0.0.1:80"), NA, true),
                new Case("iTP: Local, eTP: Cluster, some endpoints local", "", ITP_LOCAL_NODEPORT,
                        List.of(ep("10.0.0.0:80").onNode(), ep("10.0.0.1:80")), set("10.0.0.0:80", "10.0.0.1:80"), set("10.0.0.0:80"), true),
                new Case("iTP: Cluster, eTP: Local, some endpoints local", "", ETP_LOCAL_NODEPORT,
                        List.of(ep("10.0.0.0:80").onNode(), ep("10.0.0.1:80")), set("10.0.0.0:80", "10.0.0.1:80"), set("10.0.0.0:80"), true),
                new Case("iTP: Local, eTP: Local, some endpoints local", "", BOTH_LOCAL_NODEPORT,
                        List.of(ep("10.0.0.0:80").onNode(), ep("10.0.0.1:80")), set("10.0.0.0:80", "10.0.0.1:80"), set("10.0.0.0:80"), true),
                new Case("iTP: Local, eTP: Local, all endpoints remote", "", BOTH_LOCAL_NODEPORT,
                        List.of(ep("10.0.0.0:80"), ep("10.0.0.1:80")), set("10.0.0.0:80", "10.0.0.1:80"), set(), true),
                new Case("iTP: Local, eTP: Local, all endpoints remote and terminating", "", BOTH_LOCAL_NODEPORT,
                        List.of(ep("10.0.0.0:80").servingTerminating(), ep("10.0.0.1:80").servingTerminating()),
                        set("10.0.0.0:80", "10.0.0.1:80"), set(), true),
                new Case("iTP: Cluster, eTP: Local, with terminating endpoints", "", ETP_LOCAL_NODEPORT,
                        List.of(ep("10.0.0.0:80"), ep("10.0.0.1:80").notReady().onNode(), ep("10.0.0.2:80").servingTerminating().onNode(),
                                ep("10.0.0.3:80").servingTerminating()),
                        set("10.0.0.0:80"), set("10.0.0.2:80"), true),
                new Case("externalTrafficPolicy ignored if not externally accessible", "", ETP_LOCAL_INTERNAL_ONLY,
                        List.of(ep("10.0.0.0:80"), ep("10.0.0.1:80").onNode()), set("10.0.0.0:80", "10.0.0.1:80"), NA, true),
                new Case("no cluster endpoints for iTP:Local internal-only service", "", ITP_LOCAL,
                        List.of(ep("10.0.0.0:80"), ep("10.0.0.1:80").onNode()), NA, set("10.0.0.1:80"), true),
                // PreferSameNode (KEP-3015): node hints first, then zone hints.
                new Case("node hints for this node win over zone hints", "zone-a", CLUSTER,
                        List.of(ep("10.0.0.1:80").zones("zone-a").nodes(NODE), ep("10.0.0.2:80").zones("zone-a").nodes("node-2"),
                                ep("10.0.0.3:80").zones("zone-b").nodes("node-3")),
                        set("10.0.0.1:80"), NA, true),
                new Case("node hints name no endpoint of this node: zone hints apply", "zone-a", CLUSTER,
                        List.of(ep("10.0.0.1:80").zones("zone-a").nodes("node-1"), ep("10.0.0.2:80").zones("zone-a").nodes("node-2"),
                                ep("10.0.0.3:80").zones("zone-b").nodes("node-3")),
                        set("10.0.0.1:80", "10.0.0.2:80"), NA, true),
                new Case("an endpoint without node hints: zone hints apply", "zone-b", CLUSTER,
                        List.of(ep("10.0.0.1:80").zones("zone-a").nodes(NODE), ep("10.0.0.2:80").zones("zone-b")),
                        set("10.0.0.2:80"), NA, true),
                new Case("unready endpoints' missing hints do not matter", "zone-a", CLUSTER,
                        List.of(ep("10.0.0.1:80").nodes(NODE), ep("10.0.0.2:80").nodes("node-2"), ep("10.0.0.3:80").notReady()),
                        set("10.0.0.1:80"), NA, true),
                new Case("terminating fallback ignores topology", "zone-a", CLUSTER,
                        List.of(ep("10.0.0.1:80").zones("zone-b").servingTerminating(), ep("10.0.0.2:80").zones("zone-a").notReady()),
                        set("10.0.0.1:80"), NA, true),
                new Case("not-serving endpoints are never used", "", BOTH_LOCAL_NODEPORT,
                        List.of(ep("10.0.0.1:80").notReady().onNode(), ep("10.0.0.2:80").notReady()), set(), set(), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void categorizes(Case c) {
        List<Endpoint> endpoints = new ArrayList<>();
        for (Ep e : c.endpoints()) {
            endpoints.add(e.toEndpoint());
        }
        Topology.Categorized got = Topology.categorize(endpoints, c.svc().usesCluster(), c.svc().usesLocal(), NODE, c.zone());
        assertThat(c.svc().usesCluster()).as("uses cluster endpoints").isEqualTo(c.cluster() != null);
        assertThat(c.svc().usesLocal()).as("uses local endpoints").isEqualTo(c.local() != null);
        assertThat(hostPorts(got.cluster())).as("cluster endpoints").isEqualTo(c.cluster() == null ? Set.of() : c.cluster());
        assertThat(hostPorts(got.local())).as("local endpoints").isEqualTo(c.local() == null ? Set.of() : c.local());
        assertThat(got.hasAny()).as("hasAnyEndpoints").isEqualTo(c.hasAny());
    }

    private static Set<String> hostPorts(List<Endpoint> eps) {
        return Set.copyOf(eps.stream().map(Endpoint::hostPort).toList());
    }
}

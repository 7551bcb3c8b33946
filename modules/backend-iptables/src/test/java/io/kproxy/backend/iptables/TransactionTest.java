package io.kproxy.backend.iptables;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.States;
import io.kproxy.events.SyncKind;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.Golden;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Partial syncs (KEP-3453; upstream's {@code TestSyncProxyRulesRepeated}): each step's restore
 * input equals upstream's expected one after upstream's own sort; a one-endpoint change writes
 * that service's chains only; a no-op sync is empty; every transaction applies cleanly to the
 * strict fake.
 */
class TransactionTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final PlanRenderer UPSTREAM = new PlanRenderer(Features.UPSTREAM_TEST);

    static Map<String, String> expected() {
        Map<String, String> out = new HashMap<>();
        String name = null;
        StringBuilder b = new StringBuilder();
        for (String line : RenderGoldenTest.resource("/upstream/sync-repeated.txt").split("\n")) {
            if (line.startsWith("## ")) {
                if (name != null) {
                    out.put(name, b.toString());
                }
                name = line.substring(3);
                b.setLength(0);
            } else {
                b.append(line).append('\n');
            }
        }
        out.put(name, b.toString());
        return out;
    }

    static ServicePortState svc(String ns, String name, String portName, String ip, int port, String... endpoints) {
        States.PortSpec p = States.port(ns, name, portName, ip, port);
        for (String e : endpoints) {
            p.endpoints.add(ep(e.split(":")[0], Integer.parseInt(e.split(":")[1]), false));
        }
        return p.build();
    }

    record Step(IptPlan plan, Transaction tx) {
    }

    static Step sync(PlanRenderer r, IptPlan last, NodeState state, Set<ServicePortName> changed) {
        IptPlan desired = r.renderIncremental(last, state, new StateDelta(changed, Set.of(), false, false));
        assertThat(desired.rulesetText()).isEqualTo(r.render(state).rulesetText());
        Transaction tx = IptDiff.diff(Optional.of(last), desired, SyncOptions.at(T0));
        return new Step((IptPlan) tx.result(), tx);
    }

    static String upstreamView(Transaction tx) {
        return UpstreamSort.sort(RenderGoldenTest.upstreamMark(UpstreamSort.section(tx.text(), Fam.V4)));
    }

    @Test
    void syncProxyRulesRepeatedMatchesUpstream() {
        Map<String, String> want = expected();
        FakeIptables kernel = new FakeIptables();
        Map<String, ServicePortState> ports = new java.util.TreeMap<>();
        ports.put("svc1", svc("ns1", "svc1", "p80", "172.30.0.41", 80, "10.0.1.1:80"));
        ports.put("svc2", svc("ns2", "svc2", "p8080", "172.30.0.42", 8080, "10.0.2.1:8080"));
        Transaction full = IptDiff.diff(Optional.empty(), UPSTREAM.render(IptStates.state(List.copyOf(ports.values()))), SyncOptions.at(T0));
        assertThat(full.kind()).isEqualTo(SyncKind.FULL);
        kernel.apply(full.text());
        IptPlan applied = (IptPlan) full.result();

        Step noop = sync(UPSTREAM, applied, IptStates.state(List.copyOf(ports.values())), Set.of(ports.get("svc1").name()));
        assertThat(noop.tx().isEmpty()).isTrue();

        ports.put("svc3", svc("ns3", "svc3", "p80", "172.30.0.43", 80, "10.0.3.1:80"));
        Step add = step(kernel, noop.plan(), ports, "svc3");
        assertThat(upstreamView(add.tx())).isEqualTo(want.get("add-svc3"));

        ServicePortName svc2 = ports.remove("svc2").name();
        Step delete = sync(UPSTREAM, add.plan(), IptStates.state(List.copyOf(ports.values())), Set.of(svc2));
        kernel.apply(delete.tx().text());
        assertThat(upstreamView(delete.tx())).isEqualTo(want.get("delete-svc2"));

        ports.put("svc4", svc("ns4", "svc4", "p80", "172.30.0.44", 80));
        Step noEndpoints = step(kernel, delete.plan(), ports, "svc4");
        assertThat(upstreamView(noEndpoints.tx())).isEqualTo(want.get("add-svc4-without-endpoints"));

        ports.put("svc4", svc("ns4", "svc4", "p80", "172.30.0.44", 80, "10.0.4.1:80"));
        Step endpoints = step(kernel, noEndpoints.plan(), ports, "svc4");
        assertThat(upstreamView(endpoints.tx())).isEqualTo(want.get("svc4-gets-endpoints"));

        ports.put("svc3", svc("ns3", "svc3", "p80", "172.30.0.43", 80, "10.0.3.2:80"));
        Step change = step(kernel, endpoints.plan(), ports, "svc3");
        assertThat(upstreamView(change.tx())).isEqualTo(want.get("change-svc3-endpoint"));

        // The kernel now holds exactly what a full sync of the final state would write.
        FakeIptables fresh = new FakeIptables();
        fresh.apply(IptDiff.diff(Optional.empty(), change.plan(), SyncOptions.at(T0)).text());
        assertThat(kernel.dump()).isEqualTo(fresh.dump());
    }

    private static Step step(FakeIptables kernel, IptPlan last, Map<String, ServicePortState> ports, String changed) {
        Step s = sync(UPSTREAM, last, IptStates.state(List.copyOf(ports.values())), Set.of(ports.get(changed).name()));
        assertThat(s.tx().kind()).isEqualTo(SyncKind.PARTIAL);
        kernel.apply(s.tx().text());
        return s;
    }

    /** The service chains a transaction writes (declares), top-level chains aside. */
    static Set<String> serviceChainsWritten(Transaction tx) {
        Set<String> out = new TreeSet<>();
        for (String l : tx.text().split("\n")) {
            if (l.startsWith(":") && Words.isServiceChain(l.substring(1).split(" ")[0])) {
                out.add(l.substring(1).split(" ")[0]);
            }
        }
        return out;
    }

    @Test
    void oneEndpointChangeWritesOnlyThatServicesChains() {
        PlanRenderer r = new PlanRenderer(Features.DEFAULT);
        List<ServicePortState> ports = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ports.add(svc("ns" + i % 5, "svc" + i, "http", "172.30.1." + (i + 1), 80, "10.1." + i + ".1:8080", "10.1." + i + ".2:8080"));
        }
        NodeState s0 = IptStates.state(ports);
        Transaction full = IptDiff.diff(Optional.empty(), r.render(s0), SyncOptions.at(T0));
        ServicePortState changed = svc("ns2", "svc7", "http", "172.30.1.8", 80, "10.1.7.1:8080", "10.1.7.9:8080");
        ports.set(7, changed);
        Step s = sync(r, (IptPlan) full.result(), IptStates.state(ports), Set.of(changed.name()));
        String hash = io.kproxy.backend.ChainNames.iptablesServicePortHash(changed.name());
        String newSep = io.kproxy.backend.ChainNames.iptablesEndpointChain(changed.name(), "10.1.7.9:8080");
        String oldSep = io.kproxy.backend.ChainNames.iptablesEndpointChain(changed.name(), "10.1.7.2:8080");
        String keptSep = io.kproxy.backend.ChainNames.iptablesEndpointChain(changed.name(), "10.1.7.1:8080");
        assertThat(serviceChainsWritten(s.tx())).containsExactlyInAnyOrder("KUBE-SVC-" + hash, keptSep, newSep, oldSep);
        assertThat(s.tx().text()).contains("-X " + oldSep).doesNotContain("# IPv6");
        for (String l : s.tx().text().split("\n")) {
            if (l.startsWith("-A KUBE-S") && !l.startsWith("-A KUBE-SERVICES")) {
                assertThat(l).as("only svc7's own chains are written").contains("ns2/svc7:http");
            }
        }
        Golden.assertMatches("iptables/tx-change-endpoint.txt", s.tx().text());
        Golden.assertMatches("iptables/tx-full.txt", IptDiff.diff(Optional.empty(), r.render(IptStates.state(ports.subList(0, 3))),
                SyncOptions.at(T0)).text());
    }

    @Test
    void forcedFullSyncDeletesWhatTheLastPlanHadAndDeclaresTheCanaries() {
        PlanRenderer r = new PlanRenderer(Features.DEFAULT);
        ServicePortState a = svc("ns1", "a", "", "172.30.0.10", 80, "10.0.0.1:80");
        ServicePortState b = svc("ns1", "b", "", "172.30.0.11", 80, "10.0.0.2:80");
        IptPlan last = r.render(IptStates.state(List.of(a, b)));
        IptPlan desired = r.render(IptStates.state(List.of(a)));
        Transaction tx = IptDiff.diff(Optional.of(last), desired, SyncOptions.fullAt(T0));
        assertThat(tx.kind()).isEqualTo(SyncKind.FULL);
        String bSvc = "KUBE-SVC-" + io.kproxy.backend.ChainNames.iptablesServicePortHash(b.name());
        assertThat(tx.text()).contains("-X " + bSvc).contains("*mangle\n:KUBE-PROXY-CANARY - [0:0]\nCOMMIT");
        FakeIptables kernel = new FakeIptables();
        kernel.apply(IptDiff.diff(Optional.empty(), last, SyncOptions.at(T0)).text());
        kernel.apply(tx.text());
        assertThat(kernel.dump()).doesNotContain(bSvc);
    }
}

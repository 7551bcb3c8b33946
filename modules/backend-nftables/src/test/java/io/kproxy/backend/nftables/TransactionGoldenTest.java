package io.kproxy.backend.nftables;

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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Incremental transactions (upstream's {@code TestSyncProxyRulesRepeated}): a no-op sync is
 * empty; adding, emptying and deleting a service touch only that service; stale chains are
 * deleted by a later sync a second after they were flushed.
 */
class TransactionGoldenTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static ServicePortState svc(String name, String ip, String... endpoints) {
        States.PortSpec p = port("ns1", name, "p80", ip, 80);
        for (String e : endpoints) {
            p.endpoints.add(ep(e, 80, false));
        }
        return p.build();
    }

    record Step(NftPlan plan, Transaction tx) {
    }

    static Step sync(NftPlan last, NodeState state, Set<ServicePortName> changed, Instant now) {
        NftPlan desired = PlanRenderer.renderIncremental(last, state, new StateDelta(changed, Set.of(), false, false));
        Transaction tx = NftDiff.diff(Optional.of(last), desired, SyncOptions.at(now));
        return new Step((NftPlan) tx.result(), tx);
    }

    @Test
    void addEmptyDeleteTouchOnlyThatService() {
        List<ServicePortState> ports = new ArrayList<>(List.of(svc("svc1", "172.30.0.41", "10.180.0.1"), svc("svc2", "172.30.0.42", "10.180.0.2")));
        NodeState s0 = NftStates.state(ports);
        Transaction full = NftDiff.diff(Optional.empty(), PlanRenderer.render(s0), SyncOptions.at(T0));
        assertThat(full.kind()).isEqualTo(SyncKind.FULL);
        NftPlan applied = (NftPlan) full.result();

        // A no-op sync is an empty transaction.
        Step noop = sync(applied, s0, Set.of(ports.getFirst().name()), T0.plusSeconds(1));
        assertThat(noop.tx().isEmpty()).isTrue();
        assertThat(noop.tx().text()).isEmpty();

        // Add a service with one endpoint.
        ServicePortState svc3 = svc("svc3", "172.30.0.43", "10.180.0.3");
        ports.add(svc3);
        Step add = sync(noop.plan(), NftStates.state(ports), Set.of(svc3.name()), T0.plusSeconds(2));
        assertThat(add.tx().kind()).isEqualTo(SyncKind.PARTIAL);
        Golden.assertMatches("nftables/tx-add-service.nft", add.tx().text());
        assertOnlyMentions(noop.plan(), add.tx(), "svc3", "172.30.0.43", "10.180.0.3");

        // Empty it: its chains are flushed, it rejects.
        ports.set(2, svc("svc3", "172.30.0.43"));
        Step empty = sync(add.plan(), NftStates.state(ports), Set.of(svc3.name()), T0.plusSeconds(3));
        Golden.assertMatches("nftables/tx-empty-service.nft", empty.tx().text());
        assertOnlyMentions(add.plan(), empty.tx(), "svc3", "172.30.0.43", "10.180.0.3");

        // Change svc2's endpoint: one element of its dispatch map and of the hairpin set, no rule.
        ports.set(1, svc("svc2", "172.30.0.42", "10.180.0.22"));
        Step change = sync(empty.plan(), NftStates.state(ports), Set.of(ports.get(1).name()), T0.plusSeconds(3).plusMillis(500));
        Golden.assertMatches("nftables/tx-change-endpoint.nft", change.tx().text());
        assertOnlyMentions(empty.plan(), change.tx(), "svc2", "172.30.0.42", "10.180.0.2", "10.180.0.22");

        // Delete it: elements go, chains wait.
        ports.remove(2);
        Step delete = sync(change.plan(), NftStates.state(ports), Set.of(svc3.name()), T0.plusSeconds(3).plusMillis(800));
        Golden.assertMatches("nftables/tx-delete-service.nft", delete.tx().text());
        assertOnlyMentions(change.plan(), delete.tx(), "svc3", "172.30.0.43");

        // svc3's chains were flushed at T0+3s and svc2's old endpoint chain at T0+3.5s: nothing
        // is due at T0+3.9s; all of them are at T0+5s.
        Step early = sync(delete.plan(), NftStates.state(ports), Set.of(), T0.plusSeconds(3).plusMillis(900));
        assertThat(early.tx().isEmpty()).isTrue();
        assertThat(early.plan().nextDeferredWork()).contains(T0.plusSeconds(4));
        Step due = sync(early.plan(), NftStates.state(ports), Set.of(), T0.plusSeconds(5));
        Golden.assertMatches("nftables/tx-delete-stale.nft", due.tx().text());
        assertThat(due.plan().nextDeferredWork()).isEmpty();
        assertThat(sync(due.plan(), NftStates.state(ports), Set.of(), T0.plusSeconds(9)).tx().isEmpty()).isTrue();
    }

    @Test
    void forcedFullSyncRewritesEverythingButKeepsAffinitySets() {
        States.PortSpec p = port("ns1", "svc1", "p80", "172.30.0.41", 80);
        p.endpoints.add(ep("10.180.0.1", 80, false));
        p.affinity = 10800;
        NodeState s = NftStates.state(List.of(p.build()));
        NftPlan plan = PlanRenderer.render(s);
        Transaction first = NftDiff.diff(Optional.empty(), plan, SyncOptions.at(T0));
        Transaction full = NftDiff.diff(Optional.of((NftPlan) first.result()), plan, SyncOptions.fullAt(T0.plusSeconds(3600)));
        assertThat(full.kind()).isEqualTo(SyncKind.FULL);
        assertThat(full.text()).contains("flush table ip kube-proxy").doesNotContain("delete table");
        assertThat(full.text().lines().filter(l -> l.startsWith("delete set") && !l.contains(NftPlan.MARKER_PREFIX)))
                .as("no set deleted but the last generation's marker").isEmpty();
        Golden.assertMatches("nftables/tx-forced-full.nft", full.text());
    }

    /**
     * Every line names the service, its cluster IP, (hairpin elements) one of its endpoints, or
     * (elements of a shared endpoint map) a range inside a slot the service held before or holds
     * after the transaction, or moves the generation marker.
     */
    private static void assertOnlyMentions(NftPlan before, Transaction tx, String service, String ip, String... endpoints) {
        List<NftDispatch> slots = new ArrayList<>();
        for (NftPlan p : List.of(before, (NftPlan) tx.result())) {
            p.v4().dispatches().values().stream().filter(d -> d.owner().service().name().equals(service)).forEach(slots::add);
        }
        for (String line : tx.text().split("\n")) {
            boolean ok = line.contains("/" + service + "/") || line.contains(ip) || line.contains(" " + NftPlan.MARKER_PREFIX);
            for (String e : endpoints) {
                ok |= line.contains("hairpin-connections { " + e + " . " + e + " . ");
            }
            ok |= inSlots(line, slots);
            assertThat(ok).as("line touches only %s: %s", service, line).isTrue();
        }
    }

    private static final Pattern SLOT_ELEMENTS = Pattern.compile("^(?:add|delete) element ip kube-proxy (endpoints-\\S+) \\{ (.*) }$");

    private static boolean inSlots(String line, List<NftDispatch> slots) {
        Matcher m = SLOT_ELEMENTS.matcher(line);
        if (!m.matches()) {
            return false;
        }
        for (String element : m.group(2).split(", ")) {
            long from = Long.parseLong(element.split("-")[0]);
            if (slots.stream().noneMatch(d -> d.map().equals(m.group(1)) && from >= d.offset() && from < d.offset() + NftDispatch.SLOT_SIZE)) {
                return false;
            }
        }
        return true;
    }
}

package io.kproxy.backend.iptables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.backend.testkit.UpstreamScenarios;
import io.kproxy.model.IpFamily;
import io.kproxy.state.NodeState;
import io.kproxy.testkit.Golden;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The real tools accept what we write, with iptables-nft and with iptables-legacy, each case in
 * a fresh private namespace: every golden ruleset passes {@code iptables-restore --test}; a
 * seeded sequence of partial and full syncs applies and leaves exactly the plan's chains; a full
 * sync after a restart sweeps an earlier run's stale chains and links the built-in chains
 * exactly once; a refusal is typed and names the failing line; cleanup removes ours and nothing
 * else; the canary notices a firewall reload; the variant is detected the way the wrapper does.
 */
class IptKernelIT {

    @BeforeAll
    static void require() {
        KernelTests.require("ip", "iptables-nft-restore", "iptables-legacy-restore", "ip6tables-nft-restore", "ip6tables-legacy-restore");
    }

    static IptablesBackend backend(NetNs ns, Variant v) {
        return IptablesProvider.create(new Proc(Optional.of(ns.name()), Duration.ofMinutes(2)), v, "test");
    }

    static String save(NetNs ns, Variant v, Fam f) {
        return ns.exec(v.tool(f, "save"));
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void goldenRulesetsPassRestoreTest(Variant v) {
        try (NetNs ns = NetNs.create("iptgold")) {
            for (String file : List.of("overall.txt", "features.txt", "features-variant.txt")) {
                String text = Golden.read("iptables/" + file);
                for (Fam f : List.of(Fam.V4, Fam.V6)) {
                    NetNs.Result r = ns.tryExecWithInput(UpstreamSort.section(text, f), v.tool(f, "restore"), "--noflush", "--test");
                    assertThat(r.exitCode()).as("%s %s %s: %s", v, file, f.family(), r.stderr()).isZero();
                }
            }
            // --test changed nothing.
            assertThat(save(ns, v, Fam.V4)).doesNotContain("KUBE-");
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void seededSyncSequenceAppliesAndLeavesExactlyThePlansChains(Variant v) throws KernelException {
        try (NetNs ns = NetNs.create("iptseq"); IptablesBackend backend = backend(ns, v)) {
            RandomStates gen = new RandomStates(4242);
            TreeMap<String, States.PortSpec> specs = gen.initial(30);
            NodeState state = RandomStates.state(specs, IptStates.node());
            Plan plan = backend.render(state);
            Instant now = Instant.parse("2026-01-01T00:00:00Z");
            Transaction tx = backend.diff(Optional.empty(), plan, SyncOptions.at(now));
            backend.check(tx);
            backend.apply(tx);
            Plan applied = tx.result();
            Random random = new Random(4242);
            for (int step = 0; step < 20; step++) {
                gen.mutate(specs, 200 + step * 3);
                NodeState next = RandomStates.state(specs, IptStates.node());
                plan = backend.renderIncremental(plan, next, IncrementalProperty.delta(state, next, random));
                tx = backend.diff(Optional.of(applied), plan, new SyncOptions(now, random.nextInt(8) == 0));
                backend.apply(tx);
                applied = tx.result();
                state = next;
            }
            for (Fam f : List.of(Fam.V4, Fam.V6)) {
                FamilyPlan fp = f.v6() ? ((IptPlan) plan).v6() : ((IptPlan) plan).v4();
                long planChains = fp.fragments().values().stream().mapToLong(p -> p.chains().size()).sum();
                long kernelChains = SaveDump.parse(save(ns, v, f)).chains("nat").stream().filter(Words::isServiceChain).count();
                assertThat(kernelChains).as("%s %s service chains", v, f.family()).isEqualTo(planChains);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void fullSyncAfterRestartSweepsStaleChainsAndLinksBuiltinChainsOnce(Variant v) throws KernelException {
        try (NetNs ns = NetNs.create("iptsweep"); IptablesBackend backend = backend(ns, v)) {
            ns.execWithInput("*nat\n:KUBE-SVC-STALESTALESTALE1 - [0:0]\n:KUBE-SEP-STALESTALESTALE1 - [0:0]\n"
                    + "-A KUBE-SVC-STALESTALESTALE1 -j KUBE-SEP-STALESTALESTALE1\n:OTHER - [0:0]\nCOMMIT\n", v.tool(Fam.V4, "restore"), "--noflush");
            NodeState s = IptStates.state(UpstreamScenarios.overall());
            for (int i = 0; i < 2; i++) {
                backend.apply(backend.diff(Optional.empty(), backend.render(s), SyncOptions.at(Instant.now())));
            }
            SaveDump d = SaveDump.parse(save(ns, v, Fam.V4));
            assertThat(d.chains("nat")).doesNotContain("KUBE-SVC-STALESTALESTALE1", "KUBE-SEP-STALESTALESTALE1").contains("OTHER",
                    "KUBE-PROXY-CANARY");
            for (Jumps.Jump j : Jumps.OURS) {
                assertThat(d.rules(j.table()).stream().filter(j.saveLine()::equals)).as(j.saveLine()).hasSize(1);
            }
            assertThat(d.rules("filter").getFirst()).as("kubelet's jump is prepended last, as upstream").isEqualTo("-A INPUT -j KUBE-FIREWALL");
        }
    }

    @Test
    void refusalIsTypedWithTheFailingLine() {
        try (NetNs ns = NetNs.create("iptbad")) {
            CommandApplier a = new CommandApplier(new Proc(Optional.of(ns.name()), Duration.ofSeconds(30)), Variant.NFT, java.util.Set.of(IpFamily.IPV4));
            String bad = "# IPv4\n*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SERVICES -j KUBE-NO-SUCH-CHAIN\nCOMMIT\n";
            IptPlan plan = new PlanRenderer(Features.DEFAULT).render(IptStates.state(List.of()));
            Transaction tx = new Transaction("iptables", io.kproxy.events.SyncKind.PARTIAL, 2, bad, plan);
            assertThatThrownBy(() -> a.apply(tx, plan)).isInstanceOfSatisfying(KernelException.class, e -> {
                assertThat(e.retryable()).isFalse();
                assertThat(e.failingLine()).as(e.toolMessage()).contains("-A KUBE-SERVICES -j KUBE-NO-SUCH-CHAIN");
            });
            assertThat(ns.exec("iptables-nft-save")).as("a refused restore changed nothing").doesNotContain("KUBE-SERVICES");
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void cleanupRemovesOursAndNothingElseAndTheCanaryNoticesAReload(Variant v) throws KernelException {
        try (NetNs ns = NetNs.create("iptclean"); IptablesBackend backend = backend(ns, v)) {
            assertThat(backend.rulesIntact()).as("no canary before the first sync").isFalse();
            backend.apply(backend.diff(Optional.empty(), backend.render(IptStates.state(UpstreamScenarios.overall())), SyncOptions.at(Instant.now())));
            assertThat(backend.rulesIntact()).isTrue();
            ns.execWithInput("*filter\n:SOMEONE - [0:0]\n-A FORWARD -j SOMEONE\n-A SOMEONE -j ACCEPT\nCOMMIT\n", v.tool(Fam.V4, "restore"), "--noflush");
            backend.cleanup();
            backend.cleanup();
            for (Fam f : List.of(Fam.V4, Fam.V6)) {
                String dump = save(ns, v, f);
                assertThat(dump.lines().filter(l -> l.contains("KUBE-") && !l.contains("KUBE-FIREWALL")).toList()).as("%s %s", v, f.family())
                        .isEmpty();
            }
            assertThat(save(ns, v, Fam.V4)).contains("-A FORWARD -j SOMEONE", "-A SOMEONE -j ACCEPT");

            // A firewall reload (a flushing restore of every table) deletes the canaries too.
            backend.apply(backend.diff(Optional.empty(), backend.render(IptStates.state(UpstreamScenarios.overall())), SyncOptions.at(Instant.now())));
            ns.execWithInput("*filter\nCOMMIT\n*nat\nCOMMIT\n*mangle\nCOMMIT\n", v.tool(Fam.V4, "restore"));
            assertThat(backend.rulesIntact()).isFalse();
            backend.apply(backend.diff(Optional.empty(), backend.render(IptStates.state(UpstreamScenarios.overall())), SyncOptions.at(Instant.now())));
            assertThat(backend.rulesIntact()).isTrue();
            assertThat(save(ns, v, Fam.V4)).contains("-A PREROUTING -m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES");
        }
    }

    @Test
    void findsTheIptablesTablesWithoutCreatingOneAndTheCleanupSkipsANamespaceWithNone() throws KernelException {
        KernelTests.require("nft");
        try (NetNs ns = NetNs.create("ipttables")) {
            Proc proc = new Proc(Optional.of(ns.name()), Duration.ofSeconds(30));
            ns.exec("nft", "add", "table", "ip", "kube-proxy"); // the nftables mode's own table is not iptables'
            assertThat(IptablesTables.present(proc)).contains(List.of());
            new IptablesProvider().cleanupLeftovers(Optional.of(ns.name())); // skipped: nothing to do, and nothing created
            assertThat(ns.exec("nft", "list", "tables")).isEqualTo("table ip kube-proxy\n");
            assertThat(IptablesTables.present(proc)).contains(List.of());

            ns.exec("iptables-nft", "-t", "nat", "-N", "KUBE-SERVICES");
            ns.exec("ip6tables-legacy", "-t", "filter", "-N", "KUBE-FORWARD");
            assertThat(IptablesTables.present(proc)).contains(List.of("nft ip nat", "legacy ip6 filter"));
            new IptablesProvider().cleanupLeftovers(Optional.of(ns.name())); // runs: both chains are ours
            assertThat(save(ns, Variant.NFT, Fam.V4)).doesNotContain("KUBE-SERVICES");
            assertThat(save(ns, Variant.LEGACY, Fam.V6)).doesNotContain("KUBE-FORWARD");
        }
    }

    @Test
    void detectsTheVariantTheNodeUses() {
        try (NetNs ns = NetNs.create("iptdetect")) {
            Proc proc = new Proc(Optional.of(ns.name()), Duration.ofSeconds(30));
            assertThat(VariantDetector.detect(proc)).isEqualTo(new VariantDetector.Choice(Variant.NFT, "default-no-rules-anywhere"));
            // kubelet on a legacy node leaves its hint chain in legacy's mangle table.
            ns.exec("iptables-legacy", "-t", "mangle", "-N", "KUBE-IPTABLES-HINT");
            assertThat(VariantDetector.detect(proc).variant()).isEqualTo(Variant.LEGACY);
            ns.exec("iptables-nft", "-t", "mangle", "-N", "KUBE-KUBELET-CANARY");
            assertThat(VariantDetector.detect(proc)).isEqualTo(new VariantDetector.Choice(Variant.NFT, "kubelet-chains-in-iptables-nft"));
        }
        try (NetNs ns = NetNs.create("iptdetect")) {
            ns.exec("iptables-legacy", "-A", "INPUT", "-j", "ACCEPT");
            assertThat(VariantDetector.detect(new Proc(Optional.of(ns.name()), Duration.ofSeconds(30))).variant()).isEqualTo(Variant.LEGACY);
            assertThat(BackendProvider.forMode("iptables")).isPresent();
        }
    }
}

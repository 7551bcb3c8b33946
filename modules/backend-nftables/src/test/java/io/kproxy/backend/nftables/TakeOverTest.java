package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.PacketWorld;
import io.kproxy.netlink.NfTableObjects;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reading nft's listings ({@link KernelTable#parse}), and the takeover transaction built from one ({@link NftDiff#adopt}). */
class TakeOverTest {

    private static final String CHAINS = """
            table ip nat {
            \tchain PREROUTING {
            \t\ttype nat hook prerouting priority dstnat; policy accept;
            \t}
            }
            table ip kube-proxy {
            \tchain nat-prerouting {
            \t\ttype nat hook prerouting priority dstnat; policy accept;
            \t}
            \tchain old-hook {
            \t\ttype filter hook input priority filter; policy accept;
            \t}
            \tchain services {
            \t}
            \tchain service-AAAAAAAA-ns1/gone/tcp/p80 {
            \t}
            }
            """;
    private static final String SETS = """
            table ip kube-proxy {
            \tset cluster-ips {
            \t\ttype ipv4_addr
            \t\tcomment "Active ClusterIPs"
            \t\telements = { 172.30.0.10 }
            \t}
            \tset affinity-BBBBBBBB-ns1/gone/tcp/p80 {
            \t\ttype ipv4_addr
            \t\tflags dynamic,timeout
            \t\ttimeout 3h
            \t}
            }
            """;
    private static final String MAPS = """
            table ip kube-proxy {
            \tmap service-ips {
            \t\ttype ipv4_addr . inet_proto . inet_service : verdict
            \t\telements = { 172.30.0.10 . tcp . 80 : goto service-AAAAAAAA-ns1/gone/tcp/p80 }
            \t}
            \tmap service-AAAAAAAA-ns1/gone/tcp/p80 {
            \t\ttype mark : verdict
            \t}
            }
            """;

    @Test
    void parsesOnlyOurTableAndTellsBaseChainsApart() {
        NfTableObjects t = KernelTable.parse(NftFamily.V4, CHAINS, SETS, MAPS);
        assertThat(t.exists()).isTrue();
        assertThat(t.chains()).containsExactly(Map.entry("nat-prerouting", true), Map.entry("old-hook", true), Map.entry("services", false),
                Map.entry("service-AAAAAAAA-ns1/gone/tcp/p80", false));
        assertThat(t.sets()).containsExactly("cluster-ips", "affinity-BBBBBBBB-ns1/gone/tcp/p80");
        assertThat(t.maps()).containsExactly("service-ips", "service-AAAAAAAA-ns1/gone/tcp/p80");
        assertThat(KernelTable.parse(NftFamily.V6, CHAINS, SETS, MAPS).exists()).isFalse();
        assertThat(KernelTable.parse(NftFamily.V4, "table ip kube-proxy {\n}\n", "", "").exists()).as("an empty table exists").isTrue();
    }

    @Test
    void takesTheTableOverWithoutDeletingIt() {
        NftPlan desired = PlanRenderer.render(NftStates.state(PacketWorld.services()));
        NfTableObjects v4 = KernelTable.parse(NftFamily.V4, CHAINS, SETS, MAPS);
        Instant now = Instant.parse("2026-11-22T07:00:00Z");
        Transaction tx = NftDiff.adopt(v4, NfTableObjects.ABSENT, desired, now);
        List<String> lines = tx.text().lines().toList();
        assertThat(lines).doesNotContain("delete table ip kube-proxy").contains("add table ip kube-proxy", "flush table ip kube-proxy",
                "delete chain ip kube-proxy old-hook", "flush set ip kube-proxy cluster-ips",
                "delete set ip kube-proxy affinity-BBBBBBBB-ns1/gone/tcp/p80", "flush map ip kube-proxy service-ips",
                "flush map ip kube-proxy service-AAAAAAAA-ns1/gone/tcp/p80",
                // no IPv6 table in the kernel: created as from scratch
                "add table ip6 kube-proxy", "delete table ip6 kube-proxy");
        assertThat(lines).as("what is still wanted is kept in place, never deleted").doesNotContain("delete chain ip kube-proxy nat-prerouting",
                "delete set ip kube-proxy cluster-ips", "delete map ip kube-proxy service-ips");
        assertThat(lines.indexOf("flush table ip kube-proxy"))
                .isLessThan(lines.indexOf("delete set ip kube-proxy affinity-BBBBBBBB-ns1/gone/tcp/p80"));
        NftPlan result = (NftPlan) tx.result();
        assertThat(result.stale().values()).extracting(NftPlan.Stale::kind, NftPlan.Stale::name)
                .containsExactlyInAnyOrder(tuple("chain", "service-AAAAAAAA-ns1/gone/tcp/p80"),
                        tuple("map", "service-AAAAAAAA-ns1/gone/tcp/p80"));
        assertThat(result.nextDeferredWork()).contains(now.plus(NftPlan.STALE_GRACE));
        assertThat(Set.copyOf(lines)).as("everything desired is written again").containsAll(
                NftDiff.diff(Optional.empty(), desired, SyncOptions.at(now)).text().lines()
                        .filter(l -> l.startsWith("add rule ip kube-proxy ")).toList());
    }
}

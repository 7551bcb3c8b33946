package io.kproxy.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.model.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lenient reading of a recorded tree ({@link ConfigTrees#readRecorded}) that the fold uses. */
class RecordedConfigTest {

    private static List<String> paths(RecordedConfig r) {
        return r.refused().stream().map(FieldError::path).toList();
    }

    @Test
    void aTreeWrittenByTheAgentReadsBackExactlyWithNothingRefused() {
        ProxyConfig c = ConfigTrees.fromTree(ConfigTrees.toTree(ConfigTrees.defaults()).with("mode", Json.of("nftables"))
                .with("clusterCIDR", Json.of("10.0.0.0/8,fd00::/48")));
        RecordedConfig r = ConfigTrees.readRecorded(ConfigTrees.toTree(c));
        assertThat(r.config()).isEqualTo(c);
        assertThat(r.refused()).isEmpty();
        RecordedConfig v2 = ConfigTrees.readRecorded(ConfigTrees.toTree(c, ConfigVersion.V1ALPHA2));
        assertThat(v2.config()).isEqualTo(c);
        assertThat(v2.refused()).isEmpty();
    }

    @Test
    void anEmptyOrPartialTreeReadsAsTheDefaultsWithoutComplaintAboutApiVersionOrKind() {
        RecordedConfig empty = ConfigTrees.readRecorded(Json.Obj.EMPTY);
        assertThat(empty.config()).isEqualTo(ConfigTrees.defaults());
        assertThat(empty.refused()).isEmpty();
        RecordedConfig partial = ConfigTrees.readRecorded(Json.obj("mode", Json.of("nftables")));
        assertThat(partial.config().mode()).isEqualTo(ProxyMode.NFTABLES);
        assertThat(partial.config().nftables().masqueradeBit()).isEqualTo(Defaults.MASQUERADE_BIT);
        assertThat(partial.refused()).isEmpty();
    }

    @Test
    void fieldsThisVersionDoesNotKnowAreSkippedSilently() {
        RecordedConfig r = ConfigTrees.readRecorded(Json.obj("mode", Json.of("ipvs"), "fromTheFuture", Json.of(1), "iptables",
                Json.obj("alsoNew", Json.Bool.TRUE)));
        assertThat(r.config().mode()).isEqualTo(ProxyMode.IPVS);
        assertThat(r.refused()).isEmpty();
    }

    @Test
    void eachRefusedValueIsReportedAndReplacedByItsDefault() {
        Json.Obj tree = Json.obj("mode", Json.of("userspace"), "iptables", Json.obj("masqueradeBit", Json.of("fourteen"),
                        "localhostNodePorts", Json.of("yes"), "syncPeriod", Json.of("soon")),
                "nftables", Json.of(5), "detectLocalMode", Json.of("Magic"), "conntrack", Json.obj("min", new Json.Dec(1.5)),
                "nodePortAddresses", Json.arr(Json.of(7), Json.of("10.0.0.0/8")), "kproxy", Json.obj("serviceCIDRs", Json.of("10.96.0.0/12")));
        RecordedConfig r = ConfigTrees.readRecorded(tree);
        assertThat(paths(r)).containsExactly("mode", "iptables.masqueradeBit", "iptables.localhostNodePorts", "iptables.syncPeriod",
                "nftables", "detectLocalMode", "nodePortAddresses[0]", "conntrack.min", "kproxy.serviceCIDRs");
        ProxyConfig d = ConfigTrees.defaults();
        ProxyConfig c = r.config();
        assertThat(c.mode()).isEqualTo(ProxyMode.IPTABLES);
        assertThat(c.iptables()).isEqualTo(d.iptables());
        assertThat(c.nftables()).isEqualTo(d.nftables());
        assertThat(c.detectLocalMode()).isEqualTo(LocalMode.CLUSTER_CIDR);
        assertThat(c.conntrack()).isEqualTo(d.conntrack());
        assertThat(c.nodePortAddresses()).containsExactly("10.0.0.0/8");
        assertThat(c.kproxy().serviceCIDRs()).isEmpty();
        assertThat(c.iptables().syncPeriod()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aDefaultThatDependsOnAnotherFieldIsThatFieldsDefault() {
        // healthzBindAddress of the wrong type: dropped, then defaulted for an IPv6 bindAddress.
        RecordedConfig r = ConfigTrees.readRecorded(Json.obj("bindAddress", Json.of("fd00::1"), "healthzBindAddress", Json.arr()));
        assertThat(paths(r)).containsExactly("healthzBindAddress");
        assertThat(r.config().healthzBindAddress()).isEqualTo("[::]:10256");
    }

    @Test
    void aV1alpha2TreeIsReadWithItsOwnDefaultsAndConversion() {
        Json.Obj tree = Json.obj("apiVersion", Json.of("kubeproxy.config.k8s.io/v1alpha2"), "mode", Json.of("ipvs"),
                "ipvs", Json.obj("masqueradeBit", Json.of(12)), "detectLocal", Json.obj("clusterCIDRs", Json.arr(Json.of("10.0.0.0/8"), Json.of(3))),
                "nodeIPOverride", Json.arr(Json.of("10.0.0.1,10.0.0.2")));
        RecordedConfig r = ConfigTrees.readRecorded(tree);
        assertThat(paths(r)).containsExactly("nodeIPOverride[0]", "detectLocal.clusterCIDRs[1]");
        assertThat(r.config().iptables().masqueradeBit()).isEqualTo(12);
        assertThat(r.config().clusterCIDR()).isEqualTo("10.0.0.0/8");
        assertThat(r.config().bindAddress()).isEqualTo("0.0.0.0");
        assertThat(r.config().iptables().localhostNodePorts()).isFalse();
    }

    @Test
    void droppingByPathRemovesArrayItemsFromTheHighestIndexAndIgnoresPathsThatLeadNowhere() {
        Json.Obj tree = Json.obj("a", Json.arr(Json.of(0), Json.of(1), Json.of(2), Json.obj("x", Json.of(1), "y", Json.of(2))), "b", Json.of(1));
        assertThat(TreePaths.drop(tree, List.of("a[0]", "a[3].x", "a[2]", "c.d", "a[9]", "b[0]", "a[x]")))
                .isEqualTo(Json.obj("a", Json.arr(Json.of(1), Json.obj("y", Json.of(2))), "b", Json.of(1)));
        assertThat(TreePaths.segments("logging.vmodule[10].verbosity")).containsExactly("logging", "vmodule", 10, "verbosity");
    }
}

package io.kproxy.state;

import static io.kproxy.state.Logs.strings;
import static io.kproxy.state.Logs.tcp;
import static io.kproxy.state.Logs.udp;
import static io.kproxy.state.Logs.v4;
import static io.kproxy.state.Logs.v6;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ServiceDeleted;
import io.kproxy.model.Json;
import io.kproxy.model.ServiceRef;
import io.kproxy.testkit.ServiceFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mirrors upstream's {@code TestBuildServiceMapAddRemove}, {@code TestBuildServiceMapServiceHeadless},
 * {@code TestBuildServiceMapServiceTypeExternalName}, {@code TestBuildServiceMapServiceUpdate}
 * ({@code pkg/proxy/service_test.go}), {@code TestServiceToServiceMap} (dual-stack filtering) and
 * the nftables/iptables {@code TestBadIPs}: Services folded into per-family service ports.
 */
class BuildServiceMapTest {

    static ServiceFixture svc(String name) {
        return ServiceFixture.service("somewhere", name);
    }

    @Test
    void addRemove() {
        FoldedState s = Logs.fold(Logs.synced().then(
                svc("cluster-ip").clusterIP("172.16.55.4").port("p1", 1234, "UDP").port("p2", 1235, "UDP").observed(),
                svc("node-port").type("NodePort").clusterIP("172.16.55.10").port("port1", 345, "UDP", 678).port("port2", 344, "TCP", 677)
                        .observed(),
                svc("load-balancer").type("LoadBalancer").clusterIP("172.16.55.11").loadBalancerIngress("10.1.2.4")
                        .port("port3", 8675, "UDP", 30061).port("port4", 8676, "UDP", 30062).observed(),
                svc("only-local-load-balancer").type("LoadBalancer").clusterIP("172.16.55.12").loadBalancerIngress("10.1.2.3")
                        .externalTrafficPolicy("Local").healthCheckNodePort(345).port("portx", 8677, "UDP", 30063)
                        .port("porty", 8678, "UDP", 30064).observed()));
        assertThat(s.node().ipv4().ports()).hasSize(8);
        assertThat(s.node().ipv6().ports()).isEmpty();
        ServicePortState p1 = v4(s, udp("somewhere", "cluster-ip", "p1"));
        assertThat(p1.clusterIP()).hasToString("172.16.55.4");
        assertThat(p1.port().value()).isEqualTo(1234);
        assertThat(p1.nodePort()).isZero();
        assertThat(p1.externallyAccessible()).isFalse();
        assertThat(v4(s, udp("somewhere", "node-port", "port1")).nodePort()).isEqualTo(678);
        assertThat(v4(s, tcp("somewhere", "node-port", "port2")).nodePort()).isEqualTo(677);
        ServicePortState lb = v4(s, udp("somewhere", "load-balancer", "port3"));
        assertThat(strings(lb.loadBalancerIPs())).containsExactly("10.1.2.4");
        assertThat(lb.externalPolicyLocal()).isFalse();
        assertThat(lb.healthCheckNodePort()).isZero();
        ServicePortState local = v4(s, udp("somewhere", "only-local-load-balancer", "portx"));
        assertThat(local.externalPolicyLocal()).isTrue();
        assertThat(local.healthCheckNodePort()).isEqualTo(345);
        assertThat(local.usesClusterEndpoints()).isTrue();
        assertThat(local.usesLocalEndpoints()).isTrue();

        // Remove some ports of one service and delete another.
        List<FoldStep> steps = Logs.steps(s,
                svc("node-port").type("NodePort").clusterIP("172.16.55.10").port("port1", 345, "UDP", 678).resourceVersion("2").observed(),
                new ServiceDeleted(new ServiceRef("somewhere", "load-balancer"), "3", false));
        assertThat(steps.get(0).delta().changedPorts()).containsExactly(tcp("somewhere", "node-port", "port2"));
        assertThat(steps.get(1).delta().changedPorts()).containsExactlyInAnyOrder(udp("somewhere", "load-balancer", "port3"),
                udp("somewhere", "load-balancer", "port4"));
        assertThat(steps.get(1).state().node().ipv4().ports()).hasSize(5);
    }

    @Test
    void headlessAndExternalNameAndUnsetClusterIPAreSkipped() {
        FoldedState s = Logs.fold(Logs.synced().then(
                svc("headless").clusterIP("None").port("rpc", 1234, "UDP").observed(),
                svc("headless-without-port").clusterIP("None").observed(),
                svc("external-name").externalName("foo2.bar.com").clusterIP("172.16.55.4").port("port1", 1235, "UDP").observed(),
                svc("no-cluster-ip").port("p", 80, "TCP").observed()));
        assertThat(s.node().ipv4().ports()).isEmpty();
        assertThat(s.node().ipv6().ports()).isEmpty();
        assertThat(s.cluster().services()).hasSize(4);
        assertThat(s.cluster().serviceSkipReason(new ServiceRef("somewhere", "headless"))).contains("headless (clusterIP: None)");
        assertThat(s.cluster().serviceSkipReason(new ServiceRef("somewhere", "external-name"))).contains("type ExternalName");
    }

    @Test
    void proxyNameAndHeadlessLabelsHideTheService() {
        FoldedState s = Logs.fold(Logs.synced().then(
                svc("other-proxy").clusterIP("172.16.55.4").port("p", 80, "TCP").label(ServiceParser.LABEL_PROXY_NAME, "").observed(),
                svc("labelled-headless").clusterIP("172.16.55.5").port("p", 80, "TCP").label(ServiceParser.LABEL_HEADLESS, "x").observed(),
                svc("plain").clusterIP("172.16.55.6").port("p", 80, "TCP").label("app", "x").observed()));
        assertThat(s.node().ipv4().ports().keySet()).containsExactly(tcp("somewhere", "plain", "p"));
    }

    @Test
    void updateThroughTheServiceTypes() {
        ServiceFixture clusterIP = svc("some-service").clusterIP("172.16.55.4").port("something", 1234, "UDP")
                .port("somethingelse", 1235, "UDP");
        FoldedState s = Logs.fold(Logs.synced().then(clusterIP.observed()));
        ServicePortState before = v4(s, udp("somewhere", "some-service", "something"));
        assertThat(before.healthCheckNodePort()).isZero();

        ServiceFixture lb = svc("some-service").type("LoadBalancer").clusterIP("172.16.55.4").loadBalancerIngress("10.1.2.3")
                .externalTrafficPolicy("Local").healthCheckNodePort(345).port("something", 1234, "UDP", 7890)
                .port("somethingelse", 1235, "UDP", 7891).resourceVersion("2");
        FoldStep toLb = Logs.step(s, lb.observed());
        ServicePortState after = v4(toLb.state(), udp("somewhere", "some-service", "something"));
        assertThat(after.nodePort()).isEqualTo(7890);
        assertThat(after.healthCheckNodePort()).isEqualTo(345);
        assertThat(after.externalPolicyLocal()).isTrue();
        assertThat(toLb.delta().changedPorts()).hasSize(2);

        // The same object again (a resync): no change at all.
        FoldStep again = Logs.step(toLb.state(), lb.resourceVersion("3").observed());
        assertThat(again.delta().isEmpty()).isTrue();

        // And back to ClusterIP.
        FoldStep back = Logs.step(again.state(), clusterIP.resourceVersion("4").observed());
        assertThat(v4(back.state(), udp("somewhere", "some-service", "something"))).isEqualTo(before);
        assertThat(StateDelta.between(s.node(), back.state().node()).isEmpty()).isTrue();
    }

    @Test
    void dualStackServicesAreSplitByFamily() {
        FoldedState s = Logs.fold(Logs.synced().then(
                svc("dual").ipFamilies("IPv4", "IPv6").clusterIP("172.30.0.1").clusterIP("fd00::1").type("LoadBalancer")
                        .port("http", 80, "TCP", 30080).externalIPs("1.1.1.1", "2001:db8::1", "1.1.1.2")
                        .loadBalancerIngress("5.6.7.8").loadBalancerIngress("2001:db8::8")
                        .loadBalancerSourceRanges("10.0.0.0/8", "fd00::/64", " 192.168.0.0/16 ").observed(),
                svc("v6-only").ipFamilies("IPv6").clusterIP("fd00::2").port("", 53, "UDP").observed(),
                svc("v6-first").ipFamilies("IPv6", "IPv4").clusterIP("fd00::3").clusterIP("172.30.0.3").port("", 53, "UDP").observed()));
        ServicePortState d4 = v4(s, tcp("somewhere", "dual", "http"));
        ServicePortState d6 = v6(s, tcp("somewhere", "dual", "http"));
        assertThat(d4.clusterIP()).hasToString("172.30.0.1");
        assertThat(d6.clusterIP()).hasToString("fd00::1");
        assertThat(strings(d4.externalIPs())).containsExactly("1.1.1.1", "1.1.1.2");
        assertThat(strings(d6.externalIPs())).containsExactly("2001:db8::1");
        assertThat(strings(d4.loadBalancerIPs())).containsExactly("5.6.7.8");
        assertThat(strings(d6.loadBalancerIPs())).containsExactly("2001:db8::8");
        assertThat(strings(d4.loadBalancerSourceRanges())).containsExactly("10.0.0.0/8", "192.168.0.0/16");
        assertThat(strings(d6.loadBalancerSourceRanges())).containsExactly("fd00::/64");
        assertThat(v4(s, udp("somewhere", "v6-only", ""))).isNull();
        assertThat(v6(s, udp("somewhere", "v6-only", "")).clusterIP()).hasToString("fd00::2");
        assertThat(v4(s, udp("somewhere", "v6-first", "")).clusterIP()).hasToString("172.30.0.3");
        assertThat(v6(s, udp("somewhere", "v6-first", "")).clusterIP()).hasToString("fd00::3");
    }

    @Test
    void serviceWithoutIpFamiliesUsesClusterIpOfItsOwnFamily() {
        Json.Obj object = svc("skew").clusterIP("fd00::9").port("", 80, "TCP").build();
        Json.Obj spec = object.object("spec").without("clusterIPs");
        FoldedState s = Logs.fold(Logs.synced().then(new io.kproxy.events.ServiceObserved(new ServiceRef("somewhere", "skew"), "1",
                object.with("spec", spec))));
        assertThat(v4(s, tcp("somewhere", "skew", ""))).isNull();
        assertThat(v6(s, tcp("somewhere", "skew", "")).clusterIP()).hasToString("fd00::9");
    }

    /** TestBadIPs: sloppy addresses are normalised; unparseable ones are skipped and reported. */
    @Test
    void badIPsAreNormalisedOrSkipped() {
        FoldStep step = Logs.step(Logs.fold(Logs.synced()),
                svc("svc").ipFamilies("IPv4").clusterIP("172.30.0.041").type("LoadBalancer").port("p80", 80, "TCP", 3001)
                        .externalIPs("192.168.099.022", "not-an-ip").loadBalancerIngress("1.2.3.004").loadBalancerIngress("1.2.3.256")
                        .loadBalancerSourceRanges(" 203.0.113.0/25 ", "203.0.113.0/33").observed());
        ServicePortState p = v4(step.state(), tcp("somewhere", "svc", "p80"));
        assertThat(p.clusterIP()).hasToString("172.30.0.41");
        assertThat(strings(p.externalIPs())).containsExactly("192.168.99.22");
        assertThat(strings(p.loadBalancerIPs())).containsExactly("1.2.3.4");
        assertThat(strings(p.loadBalancerSourceRanges())).containsExactly("203.0.113.0/25");
        assertThat(step.rejections()).extracting(Rejection::field).containsExactly("spec.externalIPs[1]",
                "status.loadBalancer.ingress[1].ip", "spec.loadBalancerSourceRanges[1]");
        assertThat(step.rejections()).allSatisfy(r -> {
            assertThat(r.kind()).isEqualTo("Service");
            assertThat(r.key()).isEqualTo("somewhere/svc");
            assertThat(r.offset()).isEqualTo(step.state().offset());
        });
    }

    @Test
    void unparseableClusterIPSkipsTheService() {
        FoldStep step = Logs.step(Logs.fold(Logs.synced()), svc("svc").clusterIP("300.1.1.1").port("p", 80, "TCP").observed());
        assertThat(step.state().node().ipv4().ports()).isEmpty();
        assertThat(step.rejections()).singleElement().satisfies(r -> assertThat(r.field()).isEqualTo("spec.clusterIP"));
        FoldStep mismatch = Logs.step(Logs.fold(Logs.synced()),
                svc("svc").ipFamilies("IPv4").clusterIP("fd00::1").port("p", 80, "TCP").observed());
        assertThat(mismatch.state().node().ipv6().ports()).isEmpty();
        assertThat(mismatch.rejections()).singleElement().satisfies(r -> assertThat(r.field()).isEqualTo("spec.clusterIPs[0]"));
    }

    @Test
    void badPortsAreSkippedAndReported() {
        Json.Obj object = svc("svc").clusterIP("172.30.0.1").port("ok", 80, "TCP").port("too-big", 70000, "TCP").port("Bad_Name", 81, "TCP")
                .port("bad-proto", 82, "ICMP").port("bad-nodeport", 83, "TCP", 0).build();
        Json.Obj spec = object.object("spec");
        List<Json> ports = new java.util.ArrayList<>(spec.array("ports"));
        ports.set(4, ((Json.Obj) ports.get(4)).with("nodePort", Json.of(99999)));
        ports.add(Json.obj("name", Json.of("string-port"), "port", Json.of("80")));
        object = object.with("spec", spec.with("ports", Json.arr(ports)));
        FoldStep step = Logs.step(Logs.fold(Logs.synced()), new io.kproxy.events.ServiceObserved(new ServiceRef("somewhere", "svc"), "1",
                object));
        assertThat(step.state().node().ipv4().ports().keySet()).containsExactly(tcp("somewhere", "svc", "bad-nodeport"),
                tcp("somewhere", "svc", "ok"));
        assertThat(v4(step.state(), tcp("somewhere", "svc", "bad-nodeport")).nodePort()).isZero();
        assertThat(step.rejections()).extracting(Rejection::field).containsExactly("spec.ports[1].port", "spec.ports[2].name",
                "spec.ports[3].protocol", "spec.ports[4].nodePort", "spec.ports[5].port", "spec.ports[5].port");
    }

    @Test
    void loadBalancerIngressInProxyModeOrWithoutIpIsIgnored() {
        FoldedState s = Logs.fold(Logs.synced().then(svc("lb").type("LoadBalancer").clusterIP("172.30.0.1").port("p", 80, "TCP", 3000)
                .loadBalancerIngress("1.2.3.4", "Proxy").loadBalancerIngress("1.2.3.5", "VIP").loadBalancerIngress("1.2.3.6").observed()));
        assertThat(strings(v4(s, tcp("somewhere", "lb", "p")).loadBalancerIPs())).containsExactly("1.2.3.5", "1.2.3.6");
    }

    @Test
    void sessionAffinity() {
        Json.Obj noConfig = svc("a").clusterIP("172.30.0.1").port("p", 80, "TCP").build();
        Json.Obj spec = noConfig.object("spec").with("sessionAffinity", Json.of("ClientIP"));
        FoldedState s = Logs.fold(Logs.synced().then(
                new io.kproxy.events.ServiceObserved(new ServiceRef("somewhere", "a"), "1", noConfig.with("spec", spec)),
                svc("b").clusterIP("172.30.0.2").port("p", 80, "TCP").sessionAffinity(100).observed(),
                svc("c").clusterIP("172.30.0.3").port("p", 80, "TCP").observed()));
        assertThat(v4(s, tcp("somewhere", "a", "p")).affinityTimeoutSeconds()).isEqualTo(10800);
        assertThat(v4(s, tcp("somewhere", "b", "p")).affinityTimeoutSeconds()).isEqualTo(100);
        assertThat(v4(s, tcp("somewhere", "c", "p")).affinityTimeoutSeconds()).isZero();
    }

    /** pkg/api/v1/service/util.go: ExternalPolicyLocal needs external access; NeedsHealthCheck needs a LoadBalancer. */
    @Test
    void trafficPoliciesAndHealthCheckNodePort() {
        FoldedState s = Logs.fold(Logs.synced().then(
                svc("clusterip-etp").clusterIP("172.30.0.1").port("p", 80, "TCP").externalTrafficPolicy("Local").observed(),
                svc("clusterip-extip-etp").clusterIP("172.30.0.2").port("p", 80, "TCP").externalIPs("1.2.3.4")
                        .externalTrafficPolicy("Local").observed(),
                svc("nodeport-etp").type("NodePort").clusterIP("172.30.0.3").port("p", 80, "TCP", 30000).externalTrafficPolicy("Local")
                        .healthCheckNodePort(31000).observed(),
                svc("lb-cluster").type("LoadBalancer").clusterIP("172.30.0.4").port("p", 80, "TCP", 30001).healthCheckNodePort(31001)
                        .observed(),
                svc("itp").clusterIP("172.30.0.5").port("p", 80, "TCP").internalTrafficPolicy("Local").observed()));
        ServicePortState a = v4(s, tcp("somewhere", "clusterip-etp", "p"));
        assertThat(a.externalPolicyLocal()).isFalse();
        assertThat(a.usesLocalEndpoints()).isFalse();
        ServicePortState b = v4(s, tcp("somewhere", "clusterip-extip-etp", "p"));
        assertThat(b.externalPolicyLocal()).isTrue();
        assertThat(b.usesLocalEndpoints()).isTrue();
        assertThat(b.healthCheckNodePort()).isZero();
        ServicePortState c = v4(s, tcp("somewhere", "nodeport-etp", "p"));
        assertThat(c.externalPolicyLocal()).isTrue();
        assertThat(c.healthCheckNodePort()).isZero();
        assertThat(v4(s, tcp("somewhere", "lb-cluster", "p")).healthCheckNodePort()).isZero();
        ServicePortState itp = v4(s, tcp("somewhere", "itp", "p"));
        assertThat(itp.internalPolicyLocal()).isTrue();
        assertThat(itp.usesClusterEndpoints()).isFalse();
        assertThat(itp.usesLocalEndpoints()).isTrue();
    }

    @Test
    void duplicatePortsKeepTheLaterOne() {
        FoldStep step = Logs.step(Logs.fold(Logs.synced()),
                svc("dup").clusterIP("172.30.0.1").port("p", 80, "TCP").port("p", 8080, "TCP").port("p", 53, "UDP").observed());
        assertThat(v4(step.state(), tcp("somewhere", "dup", "p")).port().value()).isEqualTo(8080);
        assertThat(v4(step.state(), udp("somewhere", "dup", "p")).port().value()).isEqualTo(53);
        assertThat(step.rejections()).extracting(Rejection::field).containsExactly("spec.ports[1]");
    }
}

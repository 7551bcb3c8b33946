package io.kproxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.model.IpAddress;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The hash vectors of docs/upstream-behaviour.md §2, taken from upstream's fixtures. */
class ChainNamesTest {

    private static ServicePortName spn(String ns, String name, String port) {
        return new ServicePortName(new ServiceRef(ns, name), port, Protocol.TCP);
    }

    @ParameterizedTest
    @CsvSource({
        "ns1, svc1, p80, ULMVA6XW-ns1/svc1/tcp/p80",
        "testing, service, http, P4ZYZVCF-testing/service/tcp/http",
        "ns2, svc2, p80, 42NFTM6N-ns2/svc2/tcp/p80",
        "ns5, svc5, p80, HVFWP5L3-ns5/svc5/tcp/p80",
    })
    void nftablesServicePortBase(String ns, String name, String port, String expected) {
        assertThat(ChainNames.nftServicePortBase(spn(ns, name, port))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "ns1, svc1, p80, 10.180.0.1, 80, 5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80",
        "ns5, svc5, p80, 10.180.0.3, 80, GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80",
        "testing, service, http, fd80:abcd:12:0:a1b2:c3d4:e5f6:9999, 80, GIZ4YX43-testing/service/tcp/http__fd80.abcd.12.0.a1b2.c3d4.e5f6.9999/80",
    })
    void nftablesEndpointBase(String ns, String name, String port, String ip, int epPort, String expected) {
        assertThat(ChainNames.nftEndpointBase(spn(ns, name, port), IpAddress.parse(ip), new Port(epPort))).isEqualTo(expected);
    }

    @Test
    void upstreamIpv6VectorHashesTheTextItWasGiven() {
        // Upstream's fixture writes the endpoint as "fd80:abcd:12::a1b2:c3d4:e5f6:9999" (a "::" for one
        // zero group, which Go's net.IP.String never prints); our endpoints carry canonical text, so the
        // vector is checked on the hashing step itself.
        assertThat(ChainNames.nftHashAndTruncate("testing/service/tcp/http__fd80.abcd.12..a1b2.c3d4.e5f6.9999/80"))
                .startsWith("U7E2ET36-");
    }

    @Test
    void iptablesVectors() {
        assertThat("KUBE-SVC-" + ChainNames.iptablesServicePortHash(spn("ns1", "svc1", "p80"))).isEqualTo("KUBE-SVC-XPGD46QRK7WJZT7O");
        assertThat(ChainNames.iptablesEndpointChain(spn("ns1", "svc1", "p80"), "10.180.0.1:80")).isEqualTo("KUBE-SEP-SXIVWICOYRO3J4NJ");
        assertThat(ChainNames.iptablesServicePortHash(spn("ns2", "svc2", "p80"))).isEqualTo("GNZBNJ2PO5MGZ6GT");
    }

    @Test
    void longNamesAreTruncatedWithAnEllipsis() {
        String longName = "a".repeat(300);
        String out = ChainNames.nftHashAndTruncate(longName);
        assertThat(out).hasSize(ChainNames.NFT_BASE_MAX).endsWith("...");
    }
}

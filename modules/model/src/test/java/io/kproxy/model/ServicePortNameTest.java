package io.kproxy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ServicePortName#toString} is upstream's {@code ServicePortName.String()}
 * (kubernetes {@code pkg/proxy/types.go}: {@code NamespacedName.String()} plus
 * {@code fmtPortName}, which adds {@code ":" + port} only for a non-empty port name). The
 * protocol is not part of it; chain-name hashes append it separately.
 */
class ServicePortNameTest {

    @ParameterizedTest(name = "{0}/{1} port \"{2}\" {3} -> {4}")
    @CsvSource(delimiter = '|', value = {
            "ns1|svc1|''|TCP|ns1/svc1",
            "ns1|svc1|p80|TCP|ns1/svc1:p80",
            "ns1|svc1|p80|UDP|ns1/svc1:p80",
            "kube-system|kube-dns|dns-tcp|TCP|kube-system/kube-dns:dns-tcp",
            "default|kubernetes|https|SCTP|default/kubernetes:https"})
    void printsAsUpstreamSpnString(String ns, String name, String port, Protocol protocol, String expected) {
        ServicePortName spn = new ServicePortName(new ServiceRef(ns, name), port, protocol);
        assertThat(spn.toString()).isEqualTo(expected);
    }

    @Test
    void portNameIsEmptyOrALabel() {
        ServiceRef svc = new ServiceRef("ns", "svc");
        assertThatThrownBy(() -> new ServicePortName(svc, "P80", Protocol.TCP)).isInstanceOfSatisfying(InvalidValueException.class,
                e -> assertThat(e.field()).isEqualTo("name"));
        assertThatThrownBy(() -> new ServicePortName(svc, "a:b", Protocol.TCP)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new ServicePortName(svc, null, Protocol.TCP)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new ServicePortName(svc, "p", null)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new ServicePortName(null, "p", Protocol.TCP)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void sameNameDifferentProtocolIsAnotherPortAndOrdersByServiceThenNameThenProtocol() {
        ServiceRef a = new ServiceRef("ns", "a");
        ServicePortName tcp = new ServicePortName(a, "dns", Protocol.TCP);
        ServicePortName udp = new ServicePortName(a, "dns", Protocol.UDP);
        assertThat(tcp).isNotEqualTo(udp);
        assertThat(tcp.toString()).isEqualTo(udp.toString());
        ServicePortName b = new ServicePortName(new ServiceRef("ns", "b"), "", Protocol.TCP);
        ServicePortName aEmpty = new ServicePortName(a, "", Protocol.SCTP);
        assertThat(Stream.of(b, udp, tcp, aEmpty).sorted()).containsExactly(aEmpty, tcp, udp, b);
    }
}

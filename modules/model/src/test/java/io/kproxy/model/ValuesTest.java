package io.kproxy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Ports, protocols, IP families and the error type every value throws. */
class ValuesTest {

    @Test
    void portRange() {
        assertThat(new Port(1).value()).isEqualTo(1);
        assertThat(new Port(65535).toString()).isEqualTo("65535");
        assertThatThrownBy(() -> new Port(0)).hasMessage("invalid port \"0\": must be between 1 and 65535");
        assertThatThrownBy(() -> new Port(65536)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> Port.of("spec.ports[0].nodePort", 1L << 32 | 80)).isInstanceOfSatisfying(InvalidValueException.class,
                e -> assertThat(e.field()).isEqualTo("spec.ports[0].nodePort"));
        assertThat(Port.of("p", 80)).isEqualTo(new Port(80));
        assertThat(new Port(80).compareTo(new Port(443))).isNegative();
    }

    @Test
    void protocolSpellings() {
        assertThat(Protocol.parse("p", "SCTP")).isEqualTo(Protocol.SCTP);
        assertThat(Protocol.UDP.lowerName()).isEqualTo("udp");
        assertThat(Protocol.TCP.apiName()).isEqualTo("TCP");
        assertThatThrownBy(() -> Protocol.parse("spec.ports[0].protocol", "tcp"))
                .hasMessage("invalid spec.ports[0].protocol \"tcp\": expected TCP, UDP or SCTP");
    }

    @Test
    void familySpellings() {
        assertThat(IpFamily.parse("f", "IPv6")).isEqualTo(IpFamily.IPV6);
        assertThat(IpFamily.IPV4.apiName()).isEqualTo("IPv4");
        assertThat(IpFamily.IPV4.bits()).isEqualTo(32);
        assertThat(IpFamily.IPV6.bits()).isEqualTo(128);
        assertThatThrownBy(() -> IpFamily.parse("addressType", "FQDN")).hasMessage("invalid addressType \"FQDN\": expected IPv4 or IPv6");
    }

    @Test
    void invalidValueExceptionQuotesTruncatesAndPrefixes() {
        InvalidValueException e = new InvalidValueException("port", 0, "must be positive");
        assertThat(e).isInstanceOf(IllegalArgumentException.class);
        assertThat(e.field()).isEqualTo("port");
        assertThat(e.value()).isEqualTo("0");
        assertThat(e.reason()).isEqualTo("must be positive");
        assertThat(e.at("spec.ports[0]").getMessage()).isEqualTo("invalid spec.ports[0].port \"0\": must be positive");
        assertThat(new InvalidValueException("[1]", "x", "r").at("spec.ports").field()).isEqualTo("spec.ports[1]");
        assertThat(new InvalidValueException("", "x", "r").at("spec").field()).isEqualTo("spec");
        String longValue = "x".repeat(500);
        InvalidValueException big = new InvalidValueException("f", longValue, "r");
        assertThat(big.getMessage()).isEqualTo("invalid f \"" + "x".repeat(120) + "...\": r");
        assertThat(big.value()).isEqualTo(longValue);
        assertThat(new InvalidValueException("f", null, "r").value()).isEqualTo("null");
    }
}

package io.kproxy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IP parsing and printing. The good/bad tables mirror {@code goodTestIPs} / {@code badTestIPs}
 * of k8s.io/utils {@code net/ips_test.go} (run by {@code TestParseIPSloppy} in
 * {@code net/parse_test.go}); sloppy leading zeros follow {@code net/parse.go}
 * ({@code ParseIPSloppy}: strip the zeros, then Go's {@code net.ParseIP}); printing follows Go's
 * {@code net.IP.String()} in {@code src/net/ip.go}. kube-proxy's {@code TestBadIPs}
 * (pkg/proxy/iptables and nftables {@code proxier_test.go}) relies on exactly this
 * normalisation: {@code 172.30.0.041} is written into rules as {@code 172.30.0.41}.
 */
class IpAddressTest {

    /** Each row: every string parses to the same address, which prints as the first string. */
    static Stream<Arguments> goodIps() {
        return Stream.of(
                Arguments.of("IPv4", IpFamily.IPV4, List.of("192.168.0.5", "192.168.000.005")),
                Arguments.of("IPv4 all-zeros", IpFamily.IPV4, List.of("0.0.0.0", "000.000.000.000")),
                Arguments.of("IPv4 broadcast", IpFamily.IPV4, List.of("255.255.255.255")),
                Arguments.of("kube-proxy TestBadIPs cluster IP", IpFamily.IPV4, List.of("172.30.0.41", "172.30.0.041", "172.030.000.041")),
                Arguments.of("kube-proxy TestBadIPs external IP", IpFamily.IPV4, List.of("192.168.99.11", "192.168.099.011")),
                Arguments.of("many leading zeros", IpFamily.IPV4, List.of("10.0.0.1", "0000010.0.00000.000001")),
                Arguments.of("IPv6", IpFamily.IPV6, List.of("2001:db8::5", "2001:0db8::0005", "2001:DB8::5", "2001:db8:0:0:0:0:0:5")),
                Arguments.of("IPv6 all-zeros", IpFamily.IPV6, List.of("::", "0:0:0:0:0:0:0:0", "0000:0000:0000:0000:0000:0000:0000:0000", "0::0")),
                Arguments.of("IPv6 loopback", IpFamily.IPV6, List.of("::1", "0000:0000:0000:0000:0000:0000:0000:0001")),
                Arguments.of("IPv6 trailing ellipsis", IpFamily.IPV6, List.of("1:2:3:4:5:6:7:0", "1:2:3:4:5:6:7::")),
                Arguments.of("IPv6 leading ellipsis", IpFamily.IPV6, List.of("0:2:3:4:5:6:7:8", "::2:3:4:5:6:7:8")),
                Arguments.of("IPv4-mapped IPv6 is IPv4", IpFamily.IPV4,
                        List.of("192.168.0.5", "::ffff:192.168.0.5", "::ffff:0192.0168.0000.0005", "::FFFF:c0a8:5", "0:0:0:0:0:ffff:192.168.0.5")),
                Arguments.of("IPv4-mapped IPv6, five-digit sloppy octet", IpFamily.IPV4, List.of("192.168.0.5", "::ffff:00192.168.0.5")),
                Arguments.of("embedded IPv4 (IPv4-compatible) stays IPv6", IpFamily.IPV6,
                        List.of("::102:304", "::1.2.3.4", "0:0:0:0:0:0:1.2.3.4", "::0001.002.3.4")),
                Arguments.of("embedded IPv4 after six groups", IpFamily.IPV6, List.of("64:ff9b::c000:221", "64:ff9b:0:0:0:0:192.0.2.33", "64:ff9b::192.0.2.33")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodIps")
    void parsesEquivalentFormsToOneAddress(String desc, IpFamily family, List<String> strings) {
        IpAddress first = IpAddress.parse(strings.getFirst());
        assertThat(first.family()).isEqualTo(family);
        assertThat(first.toString()).isEqualTo(strings.getFirst());
        for (String s : strings) {
            IpAddress ip = IpAddress.parse("spec.clusterIP", s);
            assertThat(ip).as("%s parses like %s", s, strings.getFirst()).isEqualTo(first);
            assertThat(ip.toString()).isEqualTo(strings.getFirst());
        }
    }

    static Stream<Arguments> badIps() {
        return Stream.of(
                Arguments.of("empty string is not an IP", List.of("")),
                Arguments.of("random non-IP string is not an IP", List.of("bad ip")),
                Arguments.of("domain name is not an IP", List.of("www.example.com")),
                Arguments.of("mangled IPv4 addresses are invalid", List.of("1.2.3.400", "1.2..4", "1.2.3", "1.2.3.4.5", "1.2.3.", ".1.2.3", "1.2.3.-4", "1.2.3.0x4")),
                Arguments.of("mangled IPv6 addresses are invalid",
                        List.of("1:2::12345", "1::2::3", "1:2:::3", "1:2:3", "1:2:3:4:5:6:7:8:9", "1:2:3:4::6:7:8:9", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8",
                                ":1::", "1:", ":", ":::", "g::1", "1::2:", "00000::1")),
                Arguments.of("misplaced embedded IPv4 is invalid",
                        List.of("1:2:3:4:5:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "1.2.3.4::", "::1.2.3.4:5", "::1.2.3", "::1.2.3.256", "::ffff:1.2.3.4.5")),
                Arguments.of("IPs do not have ports or brackets", List.of("1.2.3.4:80", "[2001:db8::5]", "[2001:db8::5]:80", "www.example.com:80")),
                Arguments.of("IPs with zones are invalid", List.of("169.254.169.254%eth0", "fe80::1234%eth0")),
                Arguments.of("CIDR strings are not IPs", List.of("1.2.3.0/24", "2001:db8::/64")),
                Arguments.of("IPs with whitespace are invalid", List.of(" 1.2.3.4", "1.2.3.4 ", " 2001:db8::5", "2001:db8::5 ", "1.2.3.4\n")),
                Arguments.of("non-ASCII digits are invalid", List.of("١.٢.٣.٤", "1.2.3.４")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badIps")
    void refusesInvalidTextNamingFieldAndValue(String desc, List<String> strings) {
        for (String s : strings) {
            assertThatThrownBy(() -> IpAddress.parse("spec.externalIPs[0]", s))
                    .as("%s", s)
                    .isInstanceOfSatisfying(InvalidValueException.class, e -> {
                        assertThat(e.field()).isEqualTo("spec.externalIPs[0]");
                        assertThat(e.value()).isEqualTo(s);
                        // The message is one printable line: the value in it escaped (Printable).
                        assertThat(e.getMessage()).startsWith("invalid spec.externalIPs[0] \"" + Printable.escape(s) + "\": ");
                    });
        }
    }

    @Test
    void nullIsRefusedLikeEmpty() {
        assertThatThrownBy(() -> IpAddress.parse(null)).isInstanceOf(InvalidValueException.class).hasMessage("invalid ip \"\": empty IP address");
    }

    /** Go's {@code IP.String()}: the first longest run of two or more zero groups becomes "::". */
    static Stream<Arguments> printing() {
        return Stream.of(
                Arguments.of("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
                Arguments.of("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),
                Arguments.of("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"),
                Arguments.of("1:0:0:0:0:0:0:0", "1::"),
                Arguments.of("0:0:0:0:0:0:0:1", "::1"),
                Arguments.of("0:1:0:1:0:1:0:1", "0:1:0:1:0:1:0:1"),
                Arguments.of("FFFF:ABCD:0:0:0:0:0:0", "ffff:abcd::"),
                Arguments.of("1:0:0:2:0:0:3:4", "1::2:0:0:3:4"),
                Arguments.of("1:0:0:2:0:0:0:4", "1:0:0:2::4"),
                Arguments.of("fe80:0000:0000:0000:0204:61ff:fe9d:f156", "fe80::204:61ff:fe9d:f156"),
                Arguments.of("::ffff:0:0", "0.0.0.0"),
                Arguments.of("::fffe:1.2.3.4", "::fffe:102:304"),
                Arguments.of("::1:ffff:1.2.3.4", "::1:ffff:102:304"));
    }

    @ParameterizedTest(name = "{0} prints as {1}")
    @MethodSource("printing")
    void printsAsGoDoes(String text, String expected) {
        IpAddress ip = IpAddress.parse(text);
        assertThat(ip.toString()).isEqualTo(expected);
        assertThat(IpAddress.parse(expected)).isEqualTo(ip);
    }

    @Test
    void bytesRoundTripAndMappedBytesAreIpv4() {
        IpAddress v4 = IpAddress.parse("10.180.0.1");
        assertThat(v4.toBytes()).containsExactly(10, 180, 0, 1);
        assertThat(IpAddress.ofBytes(v4.toBytes())).isEqualTo(v4);
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, (byte) 180, 0, 1};
        assertThat(IpAddress.ofBytes(mapped)).isEqualTo(v4);
        IpAddress v6 = IpAddress.parse("2001:db8::ff00:42:8329");
        assertThat(IpAddress.ofBytes(v6.toBytes())).isEqualTo(v6);
        assertThat(v6.toBytes()).hasSize(16);
        assertThatThrownBy(() -> IpAddress.ofBytes(new byte[] {1, 2, 3}))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("4 or 16 bytes");
    }

    @Test
    void predicatesAndOrder() {
        assertThat(IpAddress.parse("127.0.0.53").isLoopback()).isTrue();
        assertThat(IpAddress.parse("::1").isLoopback()).isTrue();
        assertThat(IpAddress.parse("::2").isLoopback()).isFalse();
        assertThat(IpAddress.parse("128.0.0.1").isLoopback()).isFalse();
        assertThat(IpAddress.parse("0.0.0.0").isUnspecified()).isTrue();
        assertThat(IpAddress.parse("::").isUnspecified()).isTrue();
        assertThat(IpAddress.parse("::").isIpv6()).isTrue();
        assertThat(IpAddress.parse("1.1.1.1").isIpv4()).isTrue();
        // IPv4 sorts before IPv6; within a family, unsigned numeric order (not text order).
        List<IpAddress> sorted = Stream.of("ffff::1", "10.0.0.10", "255.0.0.0", "10.0.0.9", "::1", "8000::")
                .map(IpAddress::parse).sorted().toList();
        assertThat(sorted).extracting(IpAddress::toString)
                .containsExactly("10.0.0.9", "10.0.0.10", "255.0.0.0", "::1", "8000::", "ffff::1");
    }

    /** Go's {@code IP.Equal}: an IPv4-mapped IPv6 address is the IPv4 address, so it has one representation. */
    @Test
    void mappedAddressesHaveOneRepresentation() {
        IpAddress v4 = IpAddress.parse("1.2.3.4");
        assertThat(IpAddress.ofV6(0, 0xFFFF_0102_0304L)).isEqualTo(v4);
        assertThat(IpAddress.ofV6(0, 0xFFFF_0102_0304L).isIpv4()).isTrue();
        assertThat(IpAddress.ofV6(0, 0xFFFE_0102_0304L).isIpv6()).isTrue();
        assertThatThrownBy(() -> new IpAddress(IpFamily.IPV6, 0, 0xFFFF_0102_0304L))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("use IPv4");
    }

    @Test
    void constructorRefusesWideIpv4AndMissingFamily() {
        assertThatThrownBy(() -> new IpAddress(IpFamily.IPV4, 0, 1L << 32)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new IpAddress(IpFamily.IPV4, 1, 0)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new IpAddress(null, 0, 0)).isInstanceOf(InvalidValueException.class);
    }

    /** Printing then parsing any address gives it back (seeded; the seed is in the failure message). */
    @Test
    void randomAddressesRoundTripThroughText() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            IpAddress ip = switch (rnd.nextInt(4)) {
                case 0 -> IpAddress.ofV4(rnd.nextInt());
                // sparse groups exercise the "::" choice
                case 1 -> IpAddress.ofV6(sparse(rnd), sparse(rnd));
                default -> IpAddress.ofBytes(randomBytes(rnd));
            };
            String text = ip.toString();
            assertThat(IpAddress.parse(text)).as("seed=%d text=%s", seed, text).isEqualTo(ip);
            assertThat(IpAddress.ofBytes(ip.toBytes())).as("seed=%d", seed).isEqualTo(ip);
        }
    }

    private static long sparse(Random rnd) {
        long v = 0;
        for (int g = 0; g < 4; g++) {
            v = (v << 16) | (rnd.nextInt(3) == 0 ? rnd.nextInt(0x10000) : 0);
        }
        return v;
    }

    private static byte[] randomBytes(Random rnd) {
        byte[] b = new byte[16];
        rnd.nextBytes(b);
        if (rnd.nextBoolean()) {
            java.util.Arrays.fill(b, 0, 10, (byte) 0);
            b[10] = (byte) 0xff;
            b[11] = (byte) 0xff;
        }
        return b;
    }
}

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
 * CIDR parsing as {@code netutils.ParseCIDRSloppy} (k8s.io/utils {@code net/parse.go}) returns
 * the network: host bits masked, printed as Go's {@code IPNet.String()} ({@code src/net/ip.go},
 * {@code networkNumberAndMask}). The tables mirror {@code goodTestCIDRs} / {@code badTestCIDRs}
 * in k8s.io/utils {@code net/ips_test.go}.
 */
class CidrTest {

    static Stream<Arguments> goodCidrs() {
        return Stream.of(
                Arguments.of("IPv4", List.of("1.2.3.0/24")),
                Arguments.of("IPv4, single IP", List.of("1.1.1.1/32")),
                Arguments.of("IPv4, all IPs", List.of("0.0.0.0/0", "000.000.000.000/000")),
                Arguments.of("IPv4 ifaddr (masked)", List.of("1.2.3.0/24", "1.2.3.4/24", "1.2.3.255/24", "001.002.003.004/024")),
                Arguments.of("IPv6", List.of("2001:db8::/64", "2001:db8:0:0:0:0:0:0/64", "2001:DB8::/64")),
                Arguments.of("IPv6, all IPs", List.of("::/0")),
                Arguments.of("IPv6, single IP", List.of("::1/128")),
                Arguments.of("IPv6 ifaddr (masked)", List.of("2001:db8::/64", "2001:db8::1/64", "2001:db8::f00f:f0f0:0f0f:000f/64")),
                Arguments.of("IPv4-mapped IPv6", List.of("1.1.1.0/24", "::ffff:1.1.1.0/120", "::ffff:01.01.01.00/0120", "::ffff:101:1ff/120")),
                // Go: the mask keeps 96 + n bits; To4() then prints the IPv4 network with n bits.
                Arguments.of("IPv4-mapped IPv6, short IPv4 prefix", List.of("0.0.0.0/4", "::ffff:1.2.3.4/100")),
                Arguments.of("IPv4-mapped IPv6, prefix 96", List.of("0.0.0.0/0", "::ffff:1.2.3.4/96")),
                // Below 96 bits the ffff marker is masked away: an IPv6 network remains.
                Arguments.of("IPv4-mapped IPv6, prefix below 96", List.of("::/64", "::ffff:1.2.3.4/64")),
                Arguments.of("IPv4-mapped IPv6, prefix 90", List.of("::ffc0:0:0/90", "::ffff:1.2.3.4/90")),
                Arguments.of("leading zeros in the prefix length", List.of("10.0.0.0/8", "10.1.2.3/0008", "10.0.0.0/00000000008")),
                // kube-proxy TrimSpaces loadBalancerSourceRanges before ParseCIDRSloppy
                // (pkg/proxy/util MapCIDRsByIPFamily); Cidr.parse does the trimming itself.
                Arguments.of("surrounding blanks are trimmed", List.of("203.0.113.0/25", " 203.0.113.0/25", "203.0.113.0/25 ", "\t203.0.113.000/025\n")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodCidrs")
    void parsesToTheMaskedNetwork(String desc, List<String> strings) {
        Cidr first = Cidr.parse(strings.getFirst());
        assertThat(first.toString()).isEqualTo(strings.getFirst());
        for (String s : strings) {
            Cidr c = Cidr.parse("spec.loadBalancerSourceRanges[0]", s);
            assertThat(c).as(s).isEqualTo(first);
            assertThat(c.toString()).as(s).isEqualTo(strings.getFirst());
        }
    }

    static Stream<Arguments> badCidrs() {
        return Stream.of(
                Arguments.of("empty string is not a CIDR", List.of("", "   ")),
                Arguments.of("random unparseable string is not a CIDR", List.of("bad cidr")),
                Arguments.of("CIDR with invalid IP is invalid", List.of("1.2.300.0/24", "2001:db8000::/64", "/24")),
                Arguments.of("CIDR with invalid prefix length is invalid",
                        List.of("1.2.3.4/64", "2001:db8::5/192", "1.2.3.0/-8", "1.2.3.0/+24", "1.2.3.0/", "1.2.3.0/33", "::/129", "::ffff:1.2.3.4/129",
                                "1.2.3.0/2 4", "1.2.3.0/0x10", "1.2.3.0/99999999999999999999")),
                Arguments.of("URLs (that aren't also valid CIDRs) are invalid", List.of("www.example.com/24", "192.168.0.1/0/99")),
                Arguments.of("plain IP is not a CIDR", List.of("1.2.3.4", "2001:db8::1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCidrs")
    void refusesInvalidTextNamingTheField(String desc, List<String> strings) {
        for (String s : strings) {
            assertThatThrownBy(() -> Cidr.parse("spec.loadBalancerSourceRanges[1]", s))
                    .as("%s", s)
                    .isInstanceOfSatisfying(InvalidValueException.class, e -> {
                        assertThat(e.field()).isEqualTo("spec.loadBalancerSourceRanges[1]");
                        assertThat(e.value()).isEqualTo(s.strip());
                    });
        }
    }

    @Test
    void nullIsRefused() {
        assertThatThrownBy(() -> Cidr.parse(null)).isInstanceOf(InvalidValueException.class).hasMessageStartingWith("invalid cidr \"\"");
    }

    @Test
    void constructorRefusesHostBitsAndBadPrefix() {
        IpAddress ip = IpAddress.parse("10.0.0.1");
        assertThatThrownBy(() -> new Cidr(ip, 24)).isInstanceOf(InvalidValueException.class).hasMessageContaining("host bits are set");
        assertThatThrownBy(() -> new Cidr(ip, 33)).isInstanceOf(InvalidValueException.class).hasMessageContaining("between 0 and 32");
        assertThatThrownBy(() -> new Cidr(ip, -1)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new Cidr(null, 8)).isInstanceOf(InvalidValueException.class);
        assertThat(new Cidr(ip, 32)).isEqualTo(Cidr.ofAddress(ip));
        assertThat(Cidr.ofAddress(IpAddress.parse("2001:db8::1")).toString()).isEqualTo("2001:db8::1/128");
    }

    static Stream<Arguments> containment() {
        return Stream.of(
                Arguments.of("10.0.0.0/8", "10.255.255.255", true),
                Arguments.of("10.0.0.0/8", "11.0.0.0", false),
                Arguments.of("10.0.0.0/8", "9.255.255.255", false),
                Arguments.of("203.0.113.0/25", "203.0.113.127", true),
                Arguments.of("203.0.113.0/25", "203.0.113.128", false),
                Arguments.of("0.0.0.0/0", "255.255.255.255", true),
                Arguments.of("0.0.0.0/0", "::1", false),
                Arguments.of("::/0", "1.2.3.4", false),
                Arguments.of("::/0", "ffff::", true),
                Arguments.of("2001:db8::/32", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", true),
                Arguments.of("2001:db8::/32", "2001:db9::", false),
                Arguments.of("2001:db8::/65", "2001:db8::7fff:ffff:ffff:ffff", true),
                Arguments.of("2001:db8::/65", "2001:db8::8000:0:0:0", false),
                Arguments.of("::1/128", "::1", true),
                Arguments.of("::1/128", "::", false),
                Arguments.of("1.1.1.0/24", "::ffff:1.1.1.9", true),
                Arguments.of("::ffff:1.1.1.0/120", "1.1.1.9", true));
    }

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @MethodSource("containment")
    void containsFollowsGoIpNetContains(String cidr, String ip, boolean expected) {
        assertThat(Cidr.parse(cidr).contains(IpAddress.parse(ip))).isEqualTo(expected);
    }

    @Test
    void familyZeroAndOrder() {
        assertThat(Cidr.parse("0.0.0.0/0").isZero()).isTrue();
        assertThat(Cidr.parse("::/0").isZero()).isTrue();
        assertThat(Cidr.parse("10.0.0.0/8").isZero()).isFalse();
        assertThat(Cidr.parse("::/0").family()).isEqualTo(IpFamily.IPV6);
        List<Cidr> sorted = Stream.of("10.0.0.0/16", "10.0.0.0/8", "::/0", "9.0.0.0/8").map(Cidr::parse).sorted().toList();
        assertThat(sorted).extracting(Cidr::toString).containsExactly("9.0.0.0/8", "10.0.0.0/8", "10.0.0.0/16", "::/0");
    }

    /** Masking agrees with a bit-by-bit reference for every prefix length (seeded). */
    @Test
    void maskingMatchesBitwiseReference() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            boolean v6 = rnd.nextBoolean();
            byte[] bytes = new byte[v6 ? 16 : 4];
            rnd.nextBytes(bytes);
            if (v6) {
                bytes[0] = (byte) (bytes[0] | 0x20); // never an IPv4-mapped address
            }
            IpAddress ip = IpAddress.ofBytes(bytes);
            int prefix = rnd.nextInt(bytes.length * 8 + 1);
            Cidr c = Cidr.parse(ip + "/" + prefix);
            byte[] want = bytes.clone();
            for (int bit = prefix; bit < want.length * 8; bit++) {
                want[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
            }
            assertThat(c.network().toBytes()).as("seed=%d %s/%d", seed, ip, prefix).containsExactly(want);
            assertThat(c.contains(ip)).as("seed=%d", seed).isTrue();
            assertThat(Cidr.parse(c.toString())).as("seed=%d", seed).isEqualTo(c);
        }
    }
}

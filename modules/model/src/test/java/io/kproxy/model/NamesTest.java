package io.kproxy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Name rules as apimachinery's {@code IsDNS1123Label} / {@code IsDNS1123Subdomain}
 * (k8s.io/apimachinery {@code pkg/util/validation/validation.go}): label
 * {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?} of at most 63 characters; subdomain = dot-separated
 * labels, at most 253 characters in all (no per-label limit). The tables follow the good/bad
 * values of upstream's {@code TestIsDNS1123Label} / {@code TestIsDNS1123Subdomain}.
 */
class NamesTest {

    static final String L63 = "a".repeat(63);

    static List<String> goodLabels() {
        return List.of("a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", L63);
    }

    static List<String> badLabels() {
        return List.of("", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
                ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", "a\n", "é", L63 + "a");
    }

    @ParameterizedTest
    @MethodSource("goodLabels")
    void acceptsLabels(String label) {
        assertThat(Names.label("f", label)).isEqualTo(label);
        assertThat(Names.subdomain("f", label)).isEqualTo(label);
        assertThatCode(() -> new ServiceRef(label, label)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @MethodSource("badLabels")
    void refusesLabels(String label) {
        assertThatThrownBy(() -> Names.label("metadata.namespace", label))
                .isInstanceOfSatisfying(InvalidValueException.class, e -> {
                    assertThat(e.field()).isEqualTo("metadata.namespace");
                    assertThat(e.value()).isEqualTo(label);
                });
    }

    static List<String> goodSubdomains() {
        return Stream.concat(goodLabels().stream(), Stream.of("a.a", "ab.c", "a-1.b-2", "0.a", "a.0", "1.2.3", L63 + "." + L63,
                "a".repeat(64), // a subdomain has no per-label limit, only the total
                (L63 + ".").repeat(3) + "a".repeat(61))).toList();
    }

    static List<String> badSubdomains() {
        return List.of("", "A", "a.B", "-a", "a-", "a..b", ".a", "a.", "a.-b", "a-.b", "a_b", "a b", "a/b", "a:b", "é.a",
                (L63 + ".").repeat(3) + "a".repeat(62));
    }

    @ParameterizedTest
    @MethodSource("goodSubdomains")
    void acceptsSubdomains(String name) {
        assertThat(Names.subdomain("f", name)).isEqualTo(name);
        assertThatCode(() -> new NodeName(name)).doesNotThrowAnyException();
        assertThatCode(() -> new EndpointSliceRef("ns", name)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @MethodSource("badSubdomains")
    void refusesSubdomains(String name) {
        assertThatThrownBy(() -> new NodeName(name)).isInstanceOfSatisfying(InvalidValueException.class, e -> {
            assertThat(e.field()).isEqualTo("nodeName");
            assertThat(e.value()).isEqualTo(name);
        });
    }

    @Test
    void lengthLimitsAreExact() {
        assertThat(((L63 + ".").repeat(3) + "a".repeat(61))).hasSize(253);
        assertThatThrownBy(() -> Names.label("f", L63 + "a")).hasMessage("invalid f \"" + L63 + "a\": must be at most 63 characters");
        assertThatThrownBy(() -> Names.subdomain("f", "a".repeat(254))).hasMessageEndingWith("must be at most 253 characters");
        assertThatThrownBy(() -> Names.label("f", null)).hasMessage("invalid f \"\": must not be empty");
    }

    @Test
    void serviceRefNamesBothFieldsAndParses() {
        ServiceRef ref = ServiceRef.parse("kube-system/kube-dns");
        assertThat(ref).isEqualTo(new ServiceRef("kube-system", "kube-dns"));
        assertThat(ref.toString()).isEqualTo("kube-system/kube-dns");
        assertThatThrownBy(() -> new ServiceRef("Bad", "x")).hasMessageStartingWith("invalid metadata.namespace \"Bad\"");
        assertThatThrownBy(() -> new ServiceRef("ns", "a.b")).hasMessageStartingWith("invalid metadata.name \"a.b\"");
        assertThatThrownBy(() -> ServiceRef.parse("no-slash")).hasMessageStartingWith("invalid service \"no-slash\"");
        assertThatThrownBy(() -> ServiceRef.parse("a/b/c")).hasMessageStartingWith("invalid metadata.name \"b/c\"");
        assertThatThrownBy(() -> ServiceRef.parse(null)).isInstanceOf(InvalidValueException.class);
        assertThat(Stream.of("b/a", "a/b", "a/a", "a-b/a").map(ServiceRef::parse).sorted().map(ServiceRef::toString))
                .containsExactly("a/a", "a/b", "a-b/a", "b/a");
    }

    @Test
    void endpointSliceRefAllowsDotsInTheNameOnly() {
        EndpointSliceRef ref = new EndpointSliceRef("ns1", "svc1-abc.x");
        assertThat(ref.toString()).isEqualTo("ns1/svc1-abc.x");
        assertThatThrownBy(() -> new EndpointSliceRef("ns.1", "x")).hasMessageStartingWith("invalid metadata.namespace");
        assertThat(new EndpointSliceRef("a", "b").compareTo(new EndpointSliceRef("a", "c"))).isNegative();
        assertThat(new EndpointSliceRef("b", "a").compareTo(new EndpointSliceRef("a", "z"))).isPositive();
    }

    @Test
    void nodeNamePrintsItselfAndOrders() {
        assertThat(new NodeName("worker-1.example.com").toString()).isEqualTo("worker-1.example.com");
        assertThat(new NodeName("a").compareTo(new NodeName("b"))).isNegative();
    }
}

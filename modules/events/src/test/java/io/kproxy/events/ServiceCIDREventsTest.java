package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ServiceCIDR observations: identity, trimming, the ranges as sent, and their records. */
class ServiceCIDREventsTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static Json.Obj cidr(String name, Json cidrs) {
        return Json.obj("apiVersion", Json.of("networking.k8s.io/v1"), "kind", Json.of("ServiceCIDR"),
                "metadata", Json.obj("name", Json.of(name), "resourceVersion", Json.of("7"),
                        "managedFields", Json.arr(Json.obj("manager", Json.of("kube-apiserver")))),
                "spec", Json.obj("cidrs", cidrs));
    }

    @Test
    void observationIsClusterScopedAndTrimmed() {
        ServiceCIDRObserved e = new ServiceCIDRObserved("kubernetes", "7", cidr("kubernetes", Json.arr(Json.of("10.96.0.0/16"))));
        assertThat(e.object().object("metadata").fields()).doesNotContainKey("managedFields");
        assertThat(e.cidrs()).containsExactly("10.96.0.0/16");
        // the name must match the object's, and a namespace does not belong on a ServiceCIDR
        assertThatThrownBy(() -> new ServiceCIDRObserved("other", "7", cidr("kubernetes", Json.arr())))
                .isInstanceOf(InvalidValueException.class);
        Json.Obj namespaced = Json.obj("metadata", Json.obj("name", Json.of("a"), "namespace", Json.of("ns")));
        assertThatThrownBy(() -> new ServiceCIDRObserved("a", "1", namespaced)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void namesAreSubdomains() {
        // apimachinery's IsDNS1123Subdomain: the pattern and 253 characters in all (a label of a
        // subdomain may be longer than 63, as there)
        for (String bad : new String[] {"", "A", "-a", "a-", "a..b", "a_b", "a".repeat(254)}) {
            assertThatThrownBy(() -> new ServiceCIDRDeleted(bad, "", false)).as(bad).isInstanceOf(InvalidValueException.class);
        }
        assertThatThrownBy(() -> new ServiceCIDRDeleted(null, "", false)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new ServiceCIDRDeleted("a", null, false)).isInstanceOf(InvalidValueException.class);
        assertThat(new ServiceCIDRDeleted("extra-v4.example", "", true).name()).isEqualTo("extra-v4.example");
        assertThat(new ServiceCIDRDeleted("a." + "b".repeat(64), "", true).name()).hasSize(66);
    }

    @Test
    void cidrsAreReadAsSentAndNeverValidated() {
        // a bad range is the fold's to skip, not the log's to refuse
        Json cidrs = Json.arr(Json.of(" 10.96.0.0/16"), Json.of(3), Json.of("fd00::/112"), Json.of("not-a-cidr"));
        assertThat(new ServiceCIDRObserved("x", "1", cidr("x", cidrs)).cidrs()).containsExactly(" 10.96.0.0/16", "fd00::/112", "not-a-cidr");
        assertThat(new ServiceCIDRObserved("x", "1", cidr("x", Json.of("10.0.0.0/8"))).cidrs()).isEmpty();
        assertThat(new ServiceCIDRObserved("x", "1", Json.obj("metadata", Json.obj("name", Json.of("x")))).cidrs()).isEmpty();
    }

    @Test
    void roundTripAndCanonical() {
        List<ClusterEvent> events = List.of(
                new ServiceCIDRObserved("kubernetes", "7", cidr("kubernetes", Json.arr(Json.of("10.96.0.0/16"), Json.of("fd00:10:96::/112")))),
                new ServiceCIDRDeleted("kubernetes", "8", false),
                new ServiceCIDRDeleted("gone", "", true),
                new SourceSynced(ResourceKind.SERVICE_CIDR, "9"),
                new SourceRelisted(ResourceKind.SERVICE_CIDR, "10", Set.of("kubernetes", "extra")));
        for (ClusterEvent e : events) {
            byte[] b = EventCodec.encode(T, "source/kube", e);
            Envelope back = EventCodec.decode(3, b);
            assertThat(back.event()).isEqualTo(e);
            assertThat(EventCodec.encode(back)).isEqualTo(b);
            assertThat(EventCodec.peekType(b, 0, b.length)).isEqualTo(e.type());
        }
    }

    @Test
    void aDecodedObservationWithABadNameIsAnInvalidValue() {
        // hand-written: the observed body of an object whose name is not a subdomain
        WireWriter w = new WireWriter();
        w.u8(1);
        w.u8(EventType.SERVICE_CIDR_OBSERVED.tag());
        w.zigzag(T.getEpochSecond());
        w.varint(0);
        w.string("s");
        w.string("1");
        w.json(Json.obj("metadata", Json.obj("name", Json.of("Not_A_Name"))));
        byte[] b = w.toByteArray();
        assertThatThrownBy(() -> EventCodec.decode(0, b)).isInstanceOfSatisfying(EventDecodeException.class,
                e -> assertThat(e.reason()).isEqualTo(EventDecodeException.Reason.INVALID_VALUE));
    }
}

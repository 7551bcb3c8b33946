package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the event records accept and refuse, and what an observation keeps of its object. */
class EventRecordsTest {

    private static Json.Obj svc(String ns, String name) {
        return Json.obj("metadata", Json.obj("name", Json.of(name), "namespace", Json.of(ns)));
    }

    @Test
    void observationsRequireTheObjectsIdentity() {
        ServiceRef ref = new ServiceRef("ns", "a");
        assertThat(new ServiceObserved(ref, "1", svc("ns", "a")).service()).isEqualTo(ref);
        assertThatThrownBy(() -> new ServiceObserved(ref, "1", svc("ns", "b")))
                .isInstanceOfSatisfying(InvalidValueException.class, e -> assertThat(e.field()).isEqualTo("service.metadata"));
        assertThatThrownBy(() -> new ServiceObserved(ref, "1", svc("other", "a"))).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new EndpointSliceObserved(new EndpointSliceRef("ns", "s"), "1", svc("ns", "t")))
                .isInstanceOf(InvalidValueException.class);
        // a Node is cluster-scoped: a namespace in its metadata does not match
        assertThatThrownBy(() -> new NodeObserved(new NodeName("n1"), "1", svc("ns", "n1"))).isInstanceOf(InvalidValueException.class);
        assertThat(new NodeObserved(new NodeName("n1"), "1", Json.obj("metadata", Json.obj("name", Json.of("n1")))).node())
                .isEqualTo(new NodeName("n1"));
        assertThatThrownBy(() -> new ServiceObserved(ref, null, svc("ns", "a"))).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void observationsDropManagedFieldsAndTheLastAppliedAnnotationOnly() {
        Json.Obj meta = Json.obj("name", Json.of("a"), "namespace", Json.of("ns"), "managedFields", Json.arr(Json.obj("manager", Json.of("x"))),
                "annotations", Json.obj(KubeObjects.LAST_APPLIED, Json.of("{...}"), "keep", Json.of("me")));
        Json.Obj object = Json.obj("kind", Json.of("Service"), "metadata", meta, "spec", Json.obj("type", Json.of("ClusterIP")));
        ServiceObserved e = new ServiceObserved(new ServiceRef("ns", "a"), "7", object);
        Json.Obj kept = e.object().object("metadata");
        assertThat(kept.fields()).doesNotContainKey("managedFields");
        assertThat(kept.object("annotations").fields()).containsOnlyKeys("keep");
        assertThat(e.object().fields().keySet()).containsExactly("kind", "metadata", "spec");
        assertThat(kept.fields().keySet()).containsExactly("name", "namespace", "annotations");
        // the only annotation was last-applied: the annotations map goes away entirely
        Json.Obj onlyLastApplied = Json.obj("metadata", Json.obj("name", Json.of("a"), "namespace", Json.of("ns"), "annotations",
                Json.obj(KubeObjects.LAST_APPLIED, Json.of("{}"))));
        assertThat(KubeObjects.trim(onlyLastApplied).object("metadata").fields()).doesNotContainKey("annotations");
        // nothing to trim: the very same object
        Json.Obj clean = svc("ns", "a");
        assertThat(KubeObjects.trim(clean)).isSameAs(clean);
        assertThat(KubeObjects.trim(Json.obj("metadata", Json.of("odd")))).isEqualTo(Json.obj("metadata", Json.of("odd")));
    }

    @Test
    void kubeObjectAccessorsDefaultToEmpty() {
        Json.Obj o = Json.obj("metadata", Json.obj("name", Json.of("a"), "resourceVersion", Json.of("42")));
        assertThat(KubeObjects.name(o)).isEqualTo("a");
        assertThat(KubeObjects.namespace(o)).isEmpty();
        assertThat(KubeObjects.resourceVersion(o)).isEqualTo("42");
        assertThat(KubeObjects.name(Json.Obj.EMPTY)).isEmpty();
        assertThat(KubeObjects.resourceVersion(Json.Obj.EMPTY)).isEmpty();
    }

    @Test
    void barriersAndDeletes() {
        Set<String> keys = new HashSet<>(Set.of("ns/a", "ns/b"));
        SourceRelisted relisted = new SourceRelisted(ResourceKind.SERVICE, "99", keys);
        keys.add("ns/c");
        assertThat(relisted.keysPresent()).containsExactlyInAnyOrder("ns/a", "ns/b");
        assertThatThrownBy(() -> relisted.keysPresent().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new SourceRelisted(ResourceKind.NODE, "", Set.of(""))).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new SourceRelisted(null, "", Set.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SourceSynced(null, "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SourceSynced(ResourceKind.NODE, null)).isInstanceOf(InvalidValueException.class);
        assertThat(new ServiceDeleted(new ServiceRef("ns", "a"), "", true).finalStateUnknown()).isTrue();
        assertThatThrownBy(() -> new NodeDeleted(new NodeName("n"), null, false)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new EndpointSliceDeleted(new EndpointSliceRef("ns", "s"), null, false))
                .isInstanceOf(InvalidValueException.class);
    }

    @Test
    void controlEvents() {
        Duration d = Duration.ofMillis(12);
        assertThat(new SyncApplied("nftables", 1, -1, SyncKind.FULL, "h", d).uptoOffset()).isEqualTo(-1);
        assertThatThrownBy(() -> new SyncApplied("", 1, 0, SyncKind.FULL, "h", d)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new SyncApplied("nftables", 0, 0, SyncKind.FULL, "h", d)).hasMessageContaining("generation");
        assertThatThrownBy(() -> new SyncApplied("nftables", 1, -2, SyncKind.FULL, "h", d)).hasMessageContaining("uptoOffset");
        assertThatThrownBy(() -> new SyncApplied("nftables", 1, 0, null, "h", d)).hasMessageContaining("kind");
        assertThatThrownBy(() -> new SyncApplied("nftables", 1, 0, SyncKind.FULL, "", d)).hasMessageContaining("rulesetHash");
        assertThatThrownBy(() -> new SyncApplied("nftables", 1, 0, SyncKind.FULL, "h", Duration.ofNanos(-1))).hasMessageContaining("duration");
        assertThatThrownBy(() -> new SyncFailed("iptables", 1, 0, SyncKind.PARTIAL, null, true, d)).hasMessageContaining("error");
        assertThatThrownBy(() -> new DataplanePinned(-1, "r")).hasMessageContaining("toOffset");
        assertThatThrownBy(() -> new DataplaneUnpinned(null)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new ConfigRecorded(new NodeName("n"), null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void envelope() {
        ClusterEvent e = new DataplaneUnpinned("r");
        Instant t = Instant.EPOCH;
        assertThat(new Envelope(0, t, "", e).source()).isEmpty();
        assertThatThrownBy(() -> new Envelope(-1, t, "s", e)).hasMessageContaining("offset");
        assertThatThrownBy(() -> new Envelope(0, null, "s", e)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Envelope(0, t, "s", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Envelope(0, t, null, e)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void everyEventNamesItsType() {
        EventGenerator gen = new EventGenerator(1);
        for (EventType t : EventType.values()) {
            assertThat(gen.event(t).type()).isEqualTo(t);
        }
    }
}

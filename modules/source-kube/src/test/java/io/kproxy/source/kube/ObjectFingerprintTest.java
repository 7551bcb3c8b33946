package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.KubeObjects;
import io.kproxy.model.Json;
import org.junit.jupiter.api.Test;

class ObjectFingerprintTest {

    private static Json.Obj service(String rv, Json.Obj spec) {
        return Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"),
                "metadata", Json.obj("name", Json.of("web"), "namespace", Json.of("ns1"), "resourceVersion", Json.of(rv)),
                "spec", spec);
    }

    @Test
    void keyOrderDoesNotMatter() {
        Json.Obj a = service("7", Json.obj("clusterIP", Json.of("10.0.0.1"), "type", Json.of("ClusterIP")));
        Json.Obj b = Json.obj("spec", Json.obj("type", Json.of("ClusterIP"), "clusterIP", Json.of("10.0.0.1")),
                "metadata", Json.obj("resourceVersion", Json.of("7"), "namespace", Json.of("ns1"), "name", Json.of("web")),
                "kind", Json.of("Service"), "apiVersion", Json.of("v1"));
        assertThat(ObjectFingerprint.of(a)).isEqualTo(ObjectFingerprint.of(b));
        assertThat(ObjectFingerprint.of(a).resourceVersion()).isEqualTo("7");
    }

    @Test
    void manyKeysInAnyOrderHashAlike() {
        // Past 16 keys the canonical form sorts another way (a sort and lookups instead of an insertion sort).
        Json.Obj forward = Json.obj();
        Json.Obj backward = Json.obj();
        for (int i = 0; i < 40; i++) {
            forward = forward.with("label-" + i, Json.of("v" + i));
            backward = backward.with("label-" + (39 - i), Json.of("v" + (39 - i)));
        }
        Json.Obj a = service("7", Json.obj("selector", forward));
        Json.Obj b = service("7", Json.obj("selector", backward));
        assertThat(ObjectFingerprint.of(a)).isEqualTo(ObjectFingerprint.of(b));
        assertThat(ObjectFingerprint.of(a)).isNotEqualTo(ObjectFingerprint.of(service("7", Json.obj("selector", forward.without("label-3")))));
    }

    @Test
    void contentChangesTheHashEvenWithTheSameVersion() {
        Json.Obj a = service("7", Json.obj("clusterIP", Json.of("10.0.0.1")));
        Json.Obj b = service("7", Json.obj("clusterIP", Json.of("10.0.0.2")));
        assertThat(ObjectFingerprint.of(a).contentHash()).isNotEqualTo(ObjectFingerprint.of(b).contentHash());
    }

    @Test
    void integersAndDecimalsDiffer() {
        Json.Obj a = service("7", Json.obj("x", Json.of(1)));
        Json.Obj b = service("7", Json.obj("x", new Json.Dec(1.0)));
        assertThat(ObjectFingerprint.of(a)).isNotEqualTo(ObjectFingerprint.of(b));
    }

    @Test
    void trimmedPartsDoNotCount() {
        Json.Obj plain = service("7", Json.obj("clusterIP", Json.of("10.0.0.1")));
        Json.Obj meta = plain.object("metadata")
                .with("managedFields", Json.arr(Json.obj("manager", Json.of("kubectl"))))
                .with("annotations", Json.obj(KubeObjects.LAST_APPLIED, Json.of("{...}")));
        Json.Obj noisy = plain.with("metadata", meta);
        assertThat(ObjectFingerprint.of(noisy)).isEqualTo(ObjectFingerprint.of(plain));
    }

    @Test
    void theCanonicalFormIsStable() {
        // Fixed so that an accidental change of the canonical form shows up here; the value was
        // computed independently (a Python script of the same canonical form: keys sorted, one tag
        // byte per value, lengths and numbers as 8-byte big-endian; SipHash-2-4-128 written from
        // the paper, under the reference test vectors' key 00..0f).
        ObjectFingerprint fp = ObjectFingerprint.of(service("7", Json.obj("clusterIP", Json.of("10.0.0.1"),
                "ports", Json.arr(Json.obj("port", Json.of(80), "weight", new Json.Dec(0.5), "open", Json.of(true))),
                "none", Json.Null.INSTANCE)), 0x0706050403020100L, 0x0f0e0d0c0b0a0908L);
        assertThat(fp.contentHash()).isEqualTo("d0b3d1c4a1085fbc847e53b8d0c26c2c");
    }

    @Test
    void theKeyIsDrawnPerProcess() {
        Json.Obj a = service("7", Json.obj("clusterIP", Json.of("10.0.0.1")));
        assertThat(ObjectFingerprint.of(a)).isEqualTo(ObjectFingerprint.of(a));
        assertThat(ObjectFingerprint.of(a).contentHash())
                .isNotEqualTo(ObjectFingerprint.of(a, 0x0706050403020100L, 0x0f0e0d0c0b0a0908L).contentHash())
                .isNotEqualTo(ObjectFingerprint.of(a, 0, 0).contentHash());
    }

    @Test
    void nestingIsUnambiguous() {
        Json.Obj a = service("7", Json.obj("a", Json.arr(Json.of("b"), Json.of("c"))));
        Json.Obj b = service("7", Json.obj("a", Json.arr(Json.of("bc"))));
        Json.Obj c = service("7", Json.obj("a", Json.arr(Json.arr(Json.of("b")), Json.of("c"))));
        assertThat(ObjectFingerprint.of(a)).isNotEqualTo(ObjectFingerprint.of(b));
        assertThat(ObjectFingerprint.of(a)).isNotEqualTo(ObjectFingerprint.of(c));
    }
}

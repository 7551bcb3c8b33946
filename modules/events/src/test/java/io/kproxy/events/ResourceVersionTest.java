package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A resourceVersion is an opaque token (issue 18, defect 4): every event that carries one refuses
 * a value with whitespace or a control, format or line separator character, and the codec reports
 * a record holding one as damage, never as an event.
 */
class ResourceVersionTest {

    static final List<String> HOSTILE = List.of("1\n}\ntable inet x { chain input { type filter hook input priority 0; policy drop; } }\n#",
            "1\r", "\u001b[31m", "1 2", "1\u2028", "1\u2029", "1\u0085", "1\u0000", "1\u202e");

    private static final ServiceRef SVC = new ServiceRef("ns", "web");
    private static final EndpointSliceRef SLICE = new EndpointSliceRef("ns", "web-1");
    private static final NodeName NODE = new NodeName("node-a");

    static List<Function<String, ClusterEvent>> everyEventWithAResourceVersion() {
        Json.Obj svc = Json.obj("metadata", Json.obj("namespace", Json.of("ns"), "name", Json.of("web")));
        Json.Obj slice = Json.obj("metadata", Json.obj("namespace", Json.of("ns"), "name", Json.of("web-1")));
        Json.Obj node = Json.obj("metadata", Json.obj("name", Json.of("node-a")));
        return List.of(rv -> new ServiceObserved(SVC, rv, svc), rv -> new ServiceDeleted(SVC, rv, false),
                rv -> new EndpointSliceObserved(SLICE, rv, slice), rv -> new EndpointSliceDeleted(SLICE, rv, true),
                rv -> new NodeObserved(NODE, rv, node), rv -> new NodeDeleted(NODE, rv, false), rv -> new SourceSynced(ResourceKind.SERVICE, rv),
                rv -> new SourceRelisted(ResourceKind.NODE, rv, Set.of("node-a")));
    }

    @Test
    void everyEventRefusesAResourceVersionThatIsNotAnOpaqueToken() {
        for (Function<String, ClusterEvent> make : everyEventWithAResourceVersion()) {
            assertThat(make.apply("184555")).isNotNull();
            assertThat(make.apply("")).isNotNull();
            for (String bad : HOSTILE) {
                assertThatThrownBy(() -> make.apply(bad)).isInstanceOfSatisfying(InvalidValueException.class, e -> {
                    assertThat(e.field()).isEqualTo("resourceVersion");
                    assertThat(e.getMessage()).doesNotContain("\n", "\r", "\u001b", "\u2028");
                });
            }
        }
    }

    /**
     * A journal is untrusted input too: a record whose resourceVersion was forged after it was
     * written (CRC and all) is damage at a byte position, not an event with a refused field: no
     * kproxy writes one, so the record is not what any kproxy observed.
     */
    @Test
    void aForgedRecordWithAControlCharacterInItsResourceVersionIsUndecodable() {
        for (Function<String, ClusterEvent> make : everyEventWithAResourceVersion()) {
            for (String bad : HOSTILE) {
                byte[] hostile = bad.getBytes(StandardCharsets.UTF_8);
                String placeholder = "9".repeat(hostile.length);
                byte[] record = EventCodec.encode(Instant.EPOCH, "source/kube", make.apply(placeholder));
                int at = indexOf(record, placeholder.getBytes(StandardCharsets.UTF_8));
                System.arraycopy(hostile, 0, record, at, hostile.length);
                assertThatThrownBy(() -> EventCodec.decode(7, record)).isInstanceOfSatisfying(EventDecodeException.class, e -> {
                    assertThat(e.reason()).isEqualTo(EventDecodeException.Reason.INVALID_VALUE);
                    assertThat(e.getMessage()).contains("resourceVersion").doesNotContain("\n", "\u001b", "\u2028");
                });
            }
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = haystack.length - needle.length; i >= 0; i--) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("placeholder not in the record");
    }
}

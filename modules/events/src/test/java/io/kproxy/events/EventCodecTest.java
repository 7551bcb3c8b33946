package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parts of format v1 that must never change, and what the writer refuses. */
class EventCodecTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00.5Z");

    @Test
    void headerLayout() {
        byte[] b = EventCodec.encode(T, "engine", new DataplaneUnpinned("ok"));
        // [version 1][tag 13][zigzag 1767225600][varint 500000000]["engine"]["ok"]
        WireWriter w = new WireWriter();
        w.u8(1);
        w.u8(13);
        w.zigzag(1_767_225_600L);
        w.varint(500_000_000L);
        w.string("engine");
        w.string("ok");
        assertThat(b).containsExactly(w.toByteArray());
        assertThat(b[0]).isEqualTo((byte) EventCodec.CURRENT_VERSION);
        assertThat(HexFormat.of().formatHex(b)).isEqualTo("010d80e4ad950d80cab5ee0106656e67696e65026f6b");
    }

    @Test
    void typeTagsAreFrozen() {
        Map<EventType, Integer> tags = new LinkedHashMap<>();
        for (EventType t : EventType.values()) {
            tags.put(t, t.tag());
            assertThat(EventType.byTag(t.tag())).isSameAs(t);
        }
        assertThat(tags).containsExactly(
                Map.entry(EventType.SERVICE_OBSERVED, 1), Map.entry(EventType.SERVICE_DELETED, 2),
                Map.entry(EventType.ENDPOINT_SLICE_OBSERVED, 3), Map.entry(EventType.ENDPOINT_SLICE_DELETED, 4),
                Map.entry(EventType.NODE_OBSERVED, 5), Map.entry(EventType.NODE_DELETED, 6), Map.entry(EventType.SOURCE_SYNCED, 7),
                Map.entry(EventType.SOURCE_RELISTED, 8), Map.entry(EventType.CONFIG_RECORDED, 9), Map.entry(EventType.SYNC_APPLIED, 10),
                Map.entry(EventType.SYNC_FAILED, 11), Map.entry(EventType.DATAPLANE_PINNED, 12), Map.entry(EventType.DATAPLANE_UNPINNED, 13),
                Map.entry(EventType.SERVICE_CIDR_OBSERVED, 14), Map.entry(EventType.SERVICE_CIDR_DELETED, 15),
                Map.entry(EventType.LOCAL_ADDRESSES_OBSERVED, 16));
        assertThat(EventType.byTag(0)).isNull();
        assertThat(EventType.byTag(17)).isNull();
        assertThat(EventType.byTag(31)).isNull();
        assertThat(EventType.byTag(-1)).isNull();
        assertThat(EventType.byTag(1000)).isNull();
        assertThat(ResourceKind.values()).containsExactly(ResourceKind.SERVICE, ResourceKind.ENDPOINT_SLICE, ResourceKind.NODE,
                ResourceKind.SERVICE_CIDR);
        assertThat(SyncKind.values()).containsExactly(SyncKind.FULL, SyncKind.PARTIAL);
    }

    /** Old records refer to dictionary keys by index: the v1 list is frozen, entry for entry. */
    @Test
    void keyDictionaryIsFrozen() throws NoSuchAlgorithmException {
        assertThat(KeyDictionary.V1).hasSize(96).doesNotHaveDuplicates();
        String joined = String.join("\n", KeyDictionary.V1);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(joined.getBytes(StandardCharsets.UTF_8)));
        assertThat(sha).as("KeyDictionary.V1 changed: that breaks every v1 record; add keys only with a new format version")
                .isEqualTo(KEY_DICTIONARY_V1_SHA256);
        assertThat(KeyDictionary.V1.getFirst()).isEqualTo("apiVersion");
        assertThat(KeyDictionary.indexOf("apiVersion")).isZero();
        assertThat(KeyDictionary.indexOf("app.kubernetes.io/name")).isEqualTo(95);
        assertThat(KeyDictionary.indexOf("no-such-key")).isEqualTo(-1);
    }

    static final String KEY_DICTIONARY_V1_SHA256 = "0218e5bc059b97762b6fd376c2d6ab8b15d542fc14b784cf7dfbc2b75a3e16fe";

    @Test
    void repeatedKeysAndStringsAreWrittenOnce() {
        Json.Obj a = Json.obj("custom-label", Json.of("some-value"), "other", Json.of("some-value"));
        Json.Obj o = Json.obj("x", a, "y", a, "z", a);
        byte[] b = EventCodec.encode(T, "s", new ConfigRecorded(new NodeName("n"), o));
        String text = new String(b, StandardCharsets.ISO_8859_1);
        assertThat(text.split("custom-label", -1)).hasSize(2);
        assertThat(text.split("some-value", -1)).hasSize(2);
        assertThat(EventCodec.decode(0, b).event()).isEqualTo(new ConfigRecorded(new NodeName("n"), o));
    }

    @Test
    void keyOrderSurvivesEncoding() {
        Json.Obj o = Json.obj("z", Json.of(1), "a", Json.of(2), "m", Json.of(3));
        ConfigRecorded e = (ConfigRecorded) EventCodec.decode(0, EventCodec.encode(T, "s", new ConfigRecorded(new NodeName("n"), o))).event();
        assertThat(e.config().fields().keySet()).containsExactly("z", "a", "m");
    }

    @Test
    void writerRefusesUnpairedSurrogatesInsteadOfWritingQuestionMarks() {
        for (String bad : new String[] {"\uD800", "a\uDC00b", "\uD83D", "x\uDE00\uD83D"}) {
            assertThatThrownBy(() -> EventCodec.encode(T, "s", new DataplaneUnpinned(bad)))
                    .isInstanceOf(InvalidValueException.class).hasMessageContaining("unpaired surrogate");
            assertThatThrownBy(() -> EventCodec.encode(T, bad, new DataplaneUnpinned("r"))).isInstanceOf(InvalidValueException.class);
            assertThatThrownBy(() -> EventCodec.encode(T, "s", new ConfigRecorded(new NodeName("n"), Json.obj(bad, Json.of(1)))))
                    .isInstanceOf(InvalidValueException.class);
        }
        // a well-formed pair is fine, also across a relist prefix boundary
        String pair = "\uD83D\uDE00";
        DataplaneUnpinned ok = new DataplaneUnpinned(pair);
        assertThat(EventCodec.decode(0, EventCodec.encode(T, "s", ok)).event()).isEqualTo(ok);
        SourceRelisted relist = new SourceRelisted(ResourceKind.SERVICE, "", java.util.Set.of("a/" + pair, "a/\uD83D\uDE01", "a/\uD83D"
                .substring(0, 2) + "x"));
        assertThat(EventCodec.decode(0, EventCodec.encode(T, "s", relist)).event()).isEqualTo(relist);
    }

    @Test
    void writerRefusesNestingTheReaderWouldRefuse() {
        Json atLimit = Json.of("leaf");
        for (int i = 0; i < WireReader.MAX_DEPTH; i++) {
            atLimit = Json.arr(atLimit);
        }
        // root object at depth 0, the chain below it puts the leaf at depth MAX_DEPTH + 1
        ConfigRecorded tooDeep = new ConfigRecorded(new NodeName("n"), Json.obj("k", atLimit));
        assertThatThrownBy(() -> EventCodec.encode(T, "s", tooDeep)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("nested deeper than 64");
        ConfigRecorded deepest = new ConfigRecorded(new NodeName("n"), Json.obj("k", ((Json.Arr) atLimit).items().getFirst()));
        assertThat(EventCodec.decode(0, EventCodec.encode(T, "s", deepest)).event()).isEqualTo(deepest);
    }

    @Test
    void peeksReadOnlyTheHeader() {
        byte[] b = EventCodec.encode(T, "s", new SourceSynced(ResourceKind.NODE, "42"));
        byte[] headerOnly = java.util.Arrays.copyOf(b, 1 + 1 + 5 + 5);
        assertThat(EventCodec.peekType(headerOnly, 0, 2)).isEqualTo(EventType.SOURCE_SYNCED);
        assertThat(EventCodec.peekRecordedAt(headerOnly, 0, headerOnly.length)).isEqualTo(T);
        assertThatThrownBy(() -> EventCodec.decode(0, headerOnly)).isInstanceOf(EventDecodeException.class);
    }

    @Test
    void decodeStampsTheOffsetItIsGiven() {
        byte[] b = EventCodec.encode(T, "s", new DataplanePinned(7, "bad rollout"));
        Envelope e = EventCodec.decode(12345, b);
        assertThat(e.offset()).isEqualTo(12345);
        assertThat(e.recordedAt()).isEqualTo(T);
        assertThat(e.source()).isEqualTo("s");
        assertThat(e.event()).isEqualTo(new DataplanePinned(7, "bad rollout"));
        assertThat(EventCodec.encode(e)).isEqualTo(b);
        assertThatThrownBy(() -> EventCodec.decode(0, b, 1, b.length)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}

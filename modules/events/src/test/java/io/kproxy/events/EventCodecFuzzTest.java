package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.kproxy.events.EventDecodeException.Reason;
import io.kproxy.model.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Garbage in: every input either fails with an {@link EventDecodeException} (with a reason) or
 * decodes to an event that re-encodes to exactly the same bytes (a bit flip may well produce
 * another valid record; that is fine only when decoding it is exact). Never another exception,
 * never an allocation sized by a declared length, never unbounded recursion.
 */
@Timeout(120)
class EventCodecFuzzTest {

    /** The property, for one input. Returns the reason, or null when the input decoded exactly. */
    static Reason decodeExactlyOrFailTyped(byte[] bytes, String context) {
        for (int peek = 0; peek < 2; peek++) {
            try {
                if (peek == 0) {
                    EventCodec.peekType(bytes, 0, bytes.length);
                } else {
                    EventCodec.peekRecordedAt(bytes, 0, bytes.length);
                }
            } catch (EventDecodeException e) {
                assertThat(e.reason()).isNotNull();
            } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                fail(context + ": peek threw " + e + " for " + hex(bytes), e);
            }
        }
        Envelope decoded;
        try {
            decoded = EventCodec.decode(0, bytes);
        } catch (EventDecodeException e) {
            assertThat(e.reason()).as(context).isNotNull();
            assertThat(e.position()).as(context).isBetween(0, bytes.length);
            return e.reason();
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            fail(context + ": decode threw " + e + " for " + hex(bytes), e);
            return null;
        }
        byte[] again = EventCodec.encode(decoded);
        if (!Arrays.equals(again, bytes)) {
            fail(context + ": decoded to " + decoded + " which re-encodes differently:\n  in  " + hex(bytes) + "\n  out " + hex(again));
        }
        return null;
    }

    /** Valid records of every type, at most {@code maxBytes} long (to keep per-bit loops short). */
    static List<byte[]> samples(long seed, int count, int maxBytes) {
        EventGenerator gen = new EventGenerator(seed);
        List<byte[]> out = new ArrayList<>();
        EventType[] types = EventType.values();
        for (int i = 0; i < count; i++) {
            ClusterEvent e = gen.event(types[i % types.length]);
            byte[] b = EventCodec.encode(gen.instant(), gen.source(), e);
            if (b.length <= maxBytes) {
                out.add(b);
            }
        }
        return out;
    }

    @Test
    void everyTruncationFailsTyped() {
        long seed = System.nanoTime();
        for (byte[] record : samples(seed, 150, 1024)) {
            for (int len = 0; len < record.length; len++) {
                byte[] cut = Arrays.copyOf(record, len);
                Reason r = decodeExactlyOrFailTyped(cut, "seed=" + seed + " truncated at " + len);
                assertThat(r).as("seed=%d: a proper prefix is never a record (len %d)", seed, len).isNotNull();
            }
        }
    }

    @Test
    void everySingleBitFlipFailsTypedOrDecodesExactly() {
        long seed = System.nanoTime();
        int exact = 0;
        for (byte[] record : samples(seed, 60, 768)) {
            for (int bit = 0; bit < record.length * 8; bit++) {
                byte[] flipped = record.clone();
                flipped[bit / 8] ^= (byte) (1 << (bit % 8));
                if (decodeExactlyOrFailTyped(flipped, "seed=" + seed + " bit " + bit) == null) {
                    exact++;
                }
            }
        }
        assertThat(exact).as("some flips land in string bytes and still decode").isPositive();
    }

    @Test
    void randomMutationsFailTypedOrDecodeExactly() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        List<byte[]> samples = samples(seed, 200, 4096);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = samples.get(rnd.nextInt(samples.size())).clone();
            int edits = 1 + rnd.nextInt(4);
            for (int k = 0; k < edits; k++) {
                switch (rnd.nextInt(4)) {
                    case 0 -> b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                    case 1 -> b[rnd.nextInt(b.length)] = (byte) (rnd.nextBoolean() ? 0xFF : 0x80);
                    case 2 -> {
                        int at = rnd.nextInt(b.length);
                        b = concat(Arrays.copyOf(b, at), Arrays.copyOfRange(b, Math.min(b.length, at + 1 + rnd.nextInt(3)), b.length));
                    }
                    default -> {
                        int at = rnd.nextInt(b.length + 1);
                        byte[] ins = new byte[1 + rnd.nextInt(3)];
                        rnd.nextBytes(ins);
                        b = concat(concat(Arrays.copyOf(b, at), ins), Arrays.copyOfRange(b, at, b.length));
                    }
                }
                if (b.length == 0) {
                    break;
                }
            }
            decodeExactlyOrFailTyped(b, "seed=" + seed + " mutation " + i);
        }
    }

    @Test
    void randomBytesFailTypedOrDecodeExactly() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int i = 0; i < 50_000; i++) {
            byte[] b = new byte[rnd.nextInt(80)];
            rnd.nextBytes(b);
            if (b.length > 1 && rnd.nextBoolean()) {
                b[0] = 1; // a valid version and type, so the garbage reaches the body
                b[1] = (byte) (1 + rnd.nextInt(EventType.values().length));
            }
            decodeExactlyOrFailTyped(b, "seed=" + seed + " random " + i);
        }
    }

    // ---- crafted damage ---------------------------------------------------------------------------

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    /** A record header for {@code type}, written with the codec's own writer. */
    static WireWriter header(EventType type) {
        WireWriter w = new WireWriter();
        w.u8(1);
        w.u8(type.tag());
        w.zigzag(T.getEpochSecond());
        w.varint(T.getNano());
        w.string("test");
        return w;
    }

    static void assertFails(byte[] bytes, Reason reason) {
        assertThat(decodeExactlyOrFailTyped(bytes, "crafted")).as("reason for %s", hex(bytes)).isEqualTo(reason);
    }

    @Test
    void wrongVersionAndUnknownTypes() {
        byte[] valid = EventCodec.encode(T, "s", new DataplaneUnpinned("r"));
        for (int v : new int[] {0, 2, 127, 255}) {
            byte[] b = valid.clone();
            b[0] = (byte) v;
            assertFails(b, Reason.UNKNOWN_VERSION);
            assertThatThrownBy(() -> EventCodec.peekType(b, 0, b.length)).isInstanceOfSatisfying(EventDecodeException.class,
                    e -> assertThat(e.reason()).isEqualTo(Reason.UNKNOWN_VERSION));
        }
        for (int tag : new int[] {0, 17, 18, 31, 32, 128, 255}) {
            byte[] b = valid.clone();
            b[1] = (byte) tag;
            assertFails(b, Reason.UNKNOWN_TYPE);
        }
        assertFails(new byte[0], Reason.TRUNCATED);
        assertFails(new byte[] {1}, Reason.TRUNCATED);
    }

    @Test
    void trailingBytes() {
        byte[] valid = EventCodec.encode(T, "s", new DataplaneUnpinned("r"));
        assertFails(concat(valid, new byte[] {0}), Reason.TRAILING_BYTES);
        assertFails(concat(valid, valid), Reason.TRAILING_BYTES);
    }

    @Test
    void hugeDeclaredLengthsAreRefusedBeforeAllocating() {
        WireWriter w = header(EventType.DATAPLANE_UNPINNED);
        w.varint(1L << 62);
        assertFails(w.toByteArray(), Reason.MALFORMED);

        WireWriter src = new WireWriter();
        src.u8(1);
        src.u8(EventType.DATAPLANE_UNPINNED.tag());
        src.zigzag(0);
        src.varint(0);
        src.varint(Integer.MAX_VALUE);
        assertFails(src.toByteArray(), Reason.MALFORMED);

        for (int tag : new int[] {WireWriter.J_ARR, WireWriter.J_OBJ}) {
            WireWriter j = header(EventType.CONFIG_RECORDED);
            j.string("node-1");
            j.u8(WireWriter.J_OBJ);
            j.varint(1);
            j.varint(1); // dictionary key "apiVersion"
            j.u8(tag);
            j.varint(Long.MAX_VALUE);
            assertFails(j.toByteArray(), Reason.MALFORMED);
        }

        WireWriter relist = header(EventType.SOURCE_RELISTED);
        relist.u8(0);
        relist.string("");
        relist.varint(1L << 40);
        assertFails(relist.toByteArray(), Reason.MALFORMED);
    }

    @Test
    void brokenVarints() {
        byte[] longer = header(EventType.DATAPLANE_PINNED).toByteArray();
        byte[] elevenBytes = new byte[11];
        Arrays.fill(elevenBytes, (byte) 0xFF);
        assertFails(concat(longer, elevenBytes), Reason.MALFORMED);
        byte[] overflow = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, 0x7F};
        assertFails(concat(longer, overflow), Reason.MALFORMED);
        // a 64-bit value that is negative as a Java long: an offset cannot be negative
        byte[] negative = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, 0x01, 1, 'r'};
        assertFails(concat(longer, negative), Reason.INVALID_VALUE);
    }

    @Test
    void nestingIsBoundedWithoutRecursingPastTheLimit() {
        for (int depth : new int[] {WireReader.MAX_DEPTH + 1, 100_000}) {
            WireWriter w = header(EventType.CONFIG_RECORDED);
            w.string("node-1");
            w.u8(WireWriter.J_OBJ);
            w.varint(1);
            w.varint(1);
            for (int i = 1; i < depth; i++) {
                w.u8(WireWriter.J_ARR);
                w.varint(1);
            }
            w.u8(WireWriter.J_NULL);
            assertFails(w.toByteArray(), Reason.MALFORMED);
        }
        // exactly at the limit: the innermost value sits at depth MAX_DEPTH (the root is depth 0)
        WireWriter w = header(EventType.CONFIG_RECORDED);
        w.string("node-1");
        w.u8(WireWriter.J_OBJ);
        w.varint(1);
        w.varint(1);
        for (int i = 1; i < WireReader.MAX_DEPTH; i++) {
            w.u8(WireWriter.J_ARR);
            w.varint(1);
        }
        w.u8(WireWriter.J_NULL);
        assertThat(decodeExactlyOrFailTyped(w.toByteArray(), "at the limit")).isNull();
    }

    @Test
    void invalidUtf8IsRefusedEverywhere() {
        byte[][] bad = {
                {(byte) 0xC0, (byte) 0x80}, // overlong NUL
                {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, // overlong '/'
                {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // an encoded surrogate
                {(byte) 0xE2, (byte) 0x82}, // cut multi-byte sequence
                {(byte) 0x80}, // lone continuation byte
                {(byte) 0xFF},
                {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // beyond U+10FFFF
                {'o', 'k', (byte) 0xC3}};
        for (byte[] s : bad) {
            // as the source
            WireWriter w = new WireWriter();
            w.u8(1);
            w.u8(EventType.DATAPLANE_UNPINNED.tag());
            w.zigzag(0);
            w.varint(0);
            raw(w, s);
            w.string("r");
            assertFails(w.toByteArray(), Reason.MALFORMED);
            // as a JSON string value and as a JSON key
            for (boolean asKey : new boolean[] {false, true}) {
                WireWriter j = header(EventType.CONFIG_RECORDED);
                j.string("node-1");
                j.u8(WireWriter.J_OBJ);
                j.varint(1);
                if (asKey) {
                    j.varint(0);
                    raw(j, s);
                    j.u8(WireWriter.J_NULL);
                } else {
                    j.varint(1);
                    j.u8(WireWriter.J_STR);
                    raw(j, s);
                }
                assertFails(j.toByteArray(), Reason.MALFORMED);
            }
        }
    }

    @Test
    void outOfRangeReferences() {
        int dict = KeyDictionary.V1.size();
        // key references: past the dictionary with an empty table, past the table, negative as a long
        for (long ref : new long[] {dict + 1L, dict + 2L, Long.MAX_VALUE, -1L, -5L, Long.MIN_VALUE}) {
            WireWriter j = header(EventType.CONFIG_RECORDED);
            j.string("node-1");
            j.u8(WireWriter.J_OBJ);
            j.varint(1);
            j.varint(ref);
            j.u8(WireWriter.J_NULL);
            assertFails(j.toByteArray(), Reason.MALFORMED);
        }
        // string references with an empty table, one past the table, negative
        for (long ref : new long[] {0, 1, Long.MAX_VALUE, -1L}) {
            WireWriter j = header(EventType.CONFIG_RECORDED);
            j.string("node-1");
            j.u8(WireWriter.J_OBJ);
            j.varint(2);
            j.varint(1);
            j.u8(WireWriter.J_STR);
            j.string("only");
            j.varint(2);
            j.u8(WireWriter.J_STR_REF);
            j.varint(ref == 0 ? 1 : ref);
            assertFails(j.toByteArray(), Reason.MALFORMED);
        }
        // relist shared-prefix lengths: longer than the previous key, negative as a long
        for (long shared : new long[] {4, 1L << 40, -1L, Long.MIN_VALUE}) {
            WireWriter r = header(EventType.SOURCE_RELISTED);
            r.u8(0);
            r.string("");
            r.varint(2);
            r.varint(0);
            r.string("a/b");
            r.varint(shared);
            r.string("c");
            assertFails(r.toByteArray(), Reason.MALFORMED);
        }
    }

    @Test
    void structuralDamage() {
        // unknown JSON tags
        for (int tag = WireWriter.J_STR_REF + 1; tag < 256; tag += 7) {
            WireWriter j = header(EventType.CONFIG_RECORDED);
            j.string("node-1");
            j.u8(tag);
            assertFails(j.toByteArray(), Reason.MALFORMED);
        }
        // an observation whose object is not an object
        WireWriter arr = header(EventType.SERVICE_OBSERVED);
        arr.string("1");
        arr.json(Json.arr(Json.of(1)));
        assertFails(arr.toByteArray(), Reason.MALFORMED);
        // duplicate keys in one object
        WireWriter dup = header(EventType.CONFIG_RECORDED);
        dup.string("node-1");
        dup.u8(WireWriter.J_OBJ);
        dup.varint(2);
        dup.varint(1);
        dup.u8(WireWriter.J_NULL);
        dup.varint(1);
        dup.u8(WireWriter.J_NULL);
        assertFails(dup.toByteArray(), Reason.MALFORMED);
        // non-finite decimals
        for (double d : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            WireWriter j = header(EventType.CONFIG_RECORDED);
            j.string("node-1");
            j.u8(WireWriter.J_OBJ);
            j.varint(1);
            j.varint(1);
            j.u8(WireWriter.J_DEC);
            j.fixed64(Double.doubleToRawLongBits(d));
            assertFails(j.toByteArray(), Reason.MALFORMED);
        }
        // booleans, resource kinds and sync kinds out of range
        WireWriter bool = header(EventType.NODE_DELETED);
        bool.string("n");
        bool.string("");
        bool.u8(2);
        assertFails(bool.toByteArray(), Reason.MALFORMED);
        WireWriter kind = header(EventType.SOURCE_SYNCED);
        kind.u8(ResourceKind.values().length);
        kind.string("");
        assertFails(kind.toByteArray(), Reason.MALFORMED);
        WireWriter sync = header(EventType.SYNC_APPLIED);
        sync.string("nftables");
        sync.varint(1);
        sync.zigzag(0);
        sync.u8(SyncKind.values().length);
        assertFails(sync.toByteArray(), Reason.MALFORMED);
    }

    @Test
    void timesOutOfRange() {
        WireWriter nanos = new WireWriter();
        nanos.u8(1);
        nanos.u8(EventType.DATAPLANE_UNPINNED.tag());
        nanos.zigzag(0);
        nanos.varint(1_000_000_000);
        nanos.string("s");
        nanos.string("r");
        assertFails(nanos.toByteArray(), Reason.MALFORMED);
        WireWriter seconds = new WireWriter();
        seconds.u8(1);
        seconds.u8(EventType.DATAPLANE_UNPINNED.tag());
        seconds.zigzag(Instant.MAX.getEpochSecond() + 1);
        seconds.varint(0);
        seconds.string("s");
        seconds.string("r");
        assertFails(seconds.toByteArray(), Reason.MALFORMED);
        for (long[] d : new long[][] {{-1, 0}, {0, 1_000_000_000}, {0, -1}}) {
            WireWriter w = header(EventType.SYNC_APPLIED);
            w.string("nftables");
            w.varint(1);
            w.zigzag(0);
            w.u8(0);
            w.string("hash");
            w.varint(d[0]);
            w.varint(d[1]);
            assertFails(w.toByteArray(), Reason.MALFORMED);
        }
    }

    @Test
    void invalidValuesAreTypedInvalidValue() {
        WireWriter name = header(EventType.SERVICE_DELETED);
        name.string("Bad_Namespace");
        name.string("svc");
        name.string("");
        name.bool(false);
        assertFails(name.toByteArray(), Reason.INVALID_VALUE);
        WireWriter noMeta = header(EventType.SERVICE_OBSERVED);
        noMeta.string("1");
        noMeta.json(Json.obj("kind", Json.of("Service")));
        assertFails(noMeta.toByteArray(), Reason.INVALID_VALUE);
        WireWriter emptyKey = header(EventType.SOURCE_RELISTED);
        emptyKey.u8(0);
        emptyKey.string("");
        emptyKey.varint(1);
        emptyKey.varint(0);
        emptyKey.string("");
        assertFails(emptyKey.toByteArray(), Reason.INVALID_VALUE);
        WireWriter generation = header(EventType.SYNC_APPLIED);
        generation.string("nftables");
        generation.varint(0);
        generation.zigzag(0);
        generation.u8(0);
        generation.string("hash");
        generation.varint(0);
        generation.varint(0);
        assertFails(generation.toByteArray(), Reason.INVALID_VALUE);
    }

    /**
     * Encodings the writer never produces but that would otherwise decode to a valid event: each
     * would give one event two byte forms, so decoding refuses them (format v1 is canonical).
     */
    @Test
    void nonCanonicalEncodingsAreRefused() {
        // a padded varint: nanos 0 written as 0x80 0x00
        WireWriter padded = new WireWriter();
        padded.u8(1);
        padded.u8(EventType.DATAPLANE_UNPINNED.tag());
        padded.zigzag(0);
        padded.u8(0x80);
        padded.u8(0x00);
        padded.string("s");
        padded.string("r");
        assertFails(padded.toByteArray(), Reason.MALFORMED);
        // a dictionary key written literally
        WireWriter dictLiteral = header(EventType.CONFIG_RECORDED);
        dictLiteral.string("node-1");
        dictLiteral.u8(WireWriter.J_OBJ);
        dictLiteral.varint(1);
        dictLiteral.varint(0);
        dictLiteral.string("apiVersion");
        dictLiteral.u8(WireWriter.J_NULL);
        assertFails(dictLiteral.toByteArray(), Reason.MALFORMED);
        // the same literal key twice (in two objects) instead of a table reference
        WireWriter twiceKey = header(EventType.CONFIG_RECORDED);
        twiceKey.string("node-1");
        twiceKey.u8(WireWriter.J_OBJ);
        twiceKey.varint(2);
        for (int i = 0; i < 2; i++) {
            twiceKey.varint(i + 1);
            twiceKey.u8(WireWriter.J_OBJ);
            twiceKey.varint(1);
            twiceKey.varint(0);
            twiceKey.string("k0");
            twiceKey.u8(WireWriter.J_NULL);
        }
        assertFails(twiceKey.toByteArray(), Reason.MALFORMED);
        // the same short string twice instead of a repeat reference
        WireWriter twiceValue = header(EventType.CONFIG_RECORDED);
        twiceValue.string("node-1");
        twiceValue.u8(WireWriter.J_OBJ);
        twiceValue.varint(2);
        for (int i = 0; i < 2; i++) {
            twiceValue.varint(i + 1);
            twiceValue.u8(WireWriter.J_STR);
            twiceValue.string("s0");
        }
        assertFails(twiceValue.toByteArray(), Reason.MALFORMED);
        // a long string may repeat literally: only strings up to MAX_INTERNED chars join the table
        WireWriter longTwice = header(EventType.CONFIG_RECORDED);
        longTwice.string("node-1");
        longTwice.json(Json.obj("a", Json.of("x".repeat(WireWriter.MAX_INTERNED + 1)), "b", Json.of("x".repeat(WireWriter.MAX_INTERNED + 1))));
        assertThat(decodeExactlyOrFailTyped(longTwice.toByteArray(), "long strings repeat literally")).isNull();
        // a relist prefix shorter than the longest common one ("a/bz" after "a/ba" shares 3, not 1)
        WireWriter relist = header(EventType.SOURCE_RELISTED);
        relist.u8(0);
        relist.string("");
        relist.varint(2);
        relist.varint(0);
        relist.string("a/ba");
        relist.varint(1);
        relist.string("/bz");
        assertFails(relist.toByteArray(), Reason.MALFORMED);
        // an observation still holding managedFields (its constructor would trim them)
        WireWriter untrimmed = header(EventType.NODE_OBSERVED);
        untrimmed.string("1");
        untrimmed.json(Json.obj("metadata", Json.obj("name", Json.of("n1"), "managedFields", Json.arr())));
        assertFails(untrimmed.toByteArray(), Reason.INVALID_VALUE);
        WireWriter lastApplied = header(EventType.SERVICE_OBSERVED);
        lastApplied.string("1");
        lastApplied.json(Json.obj("metadata", Json.obj("name", Json.of("s"), "namespace", Json.of("ns"), "annotations",
                Json.obj(KubeObjects.LAST_APPLIED, Json.of("{}")))));
        assertFails(lastApplied.toByteArray(), Reason.INVALID_VALUE);
    }

    // ---- helpers ------------------------------------------------------------------------------------

    static void raw(WireWriter w, byte[] s) {
        w.varint(s.length);
        for (byte b : s) {
            w.u8(b & 0xFF);
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(b.length, 200); i++) {
            sb.append(String.format("%02x", b[i] & 0xFF));
        }
        return b.length > 200 ? sb + "...(" + b.length + " bytes)" : sb.toString();
    }
}

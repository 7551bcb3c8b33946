package io.kproxy.netlink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bytes of a batch. Expected attribute trees are what nft 1.0.6 sends for the same commands
 * (captured with {@code nft --debug=mnl}), written as {@link NfBatch#dump()} prints them.
 */
class NfBatchTest {

    static final String KP = "6b7000"; // "kp"

    static byte[] hex(String h) {
        return HexFormat.of().parseHex(h);
    }

    @Test
    void setElementOfAConcatenatedKeyIsPaddedFieldByField() {
        NfBatch b = new NfBatch();
        // add element ip kp hairpin-connections { 10.0.0.2 . 10.0.0.2 . tcp . 80 }
        b.addElements(NfFamily.IPV4, "kp", "hairpin-connections", 0, List.of(NfElement.of(hex("0a0000020a0000020600000000500000"))));
        assertThat(b.dump()).isEqualTo("""
                type=16 flags=1 fam=0
                type=2572 flags=405 fam=2 1=%s 2=6861697270696e2d636f6e6e656374696f6e7300 3{1{1{1=0a0000020a0000020600000000500000}}}
                type=17 flags=1 fam=0
                """.formatted(KP));
    }

    @Test
    void dnatThroughANumgenIntervalMapLowersAsNftDoes() {
        NfBatch b = new NfBatch();
        // add rule ip kp c meta l4proto tcp dnat ip to numgen random mod 2147483648 map @svc
        b.addRule(NfFamily.IPV4, "kp", "c", List.of(
                new NfExpr.Meta(NfExpr.Meta.L4PROTO, NfExpr.REG_1),
                new NfExpr.Cmp(NfExpr.REG_1, NfExpr.Cmp.EQ, new byte[] {6}),
                new NfExpr.Numgen(NfExpr.REG_1, 0x80000000, NfExpr.Numgen.RANDOM, 0),
                new NfExpr.Byteorder(NfExpr.REG_1, NfExpr.REG_1, NfExpr.Byteorder.HTON, 4, 4),
                new NfExpr.Lookup("svc", 0, NfExpr.REG_1, NfExpr.REG_1, false),
                new NfExpr.Nat(NfExpr.Nat.DNAT, NfFamily.IPV4.proto(), NfExpr.REG_1, NfExpr.reg32(1), 0)), null);
        String rule = b.dump().lines().toList().get(1);
        assertThat(rule).isEqualTo("type=2566 flags=c05 fam=2 1=" + KP + " 2=6300 4{"
                + "1{1=6d65746100 2{2=00000010 1=00000001}} "
                + "1{1=636d7000 2{1=00000001 2=00000000 3{1=06}}} "
                + "1{1=6e756d67656e00 2{1=00000001 2=80000000 3=00000001 4=00000000}} "
                + "1{1=627974656f7264657200 2{1=00000001 2=00000001 3=00000001 4=00000004 5=00000004}} "
                + "1{1=6c6f6f6b757000 2{2=00000001 3=00000001 1=73766300}} "
                + "1{1=6e617400 2{1=00000001 2=00000002 3=00000001 5=00000009}}}");
    }

    @Test
    void verdictsTablesAndChains() {
        NfBatch b = new NfBatch();
        b.addTable(NfFamily.IPV6, "kp", hex("00037879007a"));
        b.addChain(NfFamily.IPV6, "kp", "c", new NfHook("nat", 3, -100), null);
        b.addRule(NfFamily.IPV6, "kp", "c", List.of(new NfExpr.Verdict(NfVerdict.jump("d"))), null);
        b.flushChain(NfFamily.IPV6, "kp", "c");
        b.deleteTable(NfFamily.IPV6, "kp");
        List<String> lines = b.dump().lines().toList();
        assertThat(lines.get(1)).isEqualTo("type=2560 flags=401 fam=10 1=" + KP + " 2=00000000 6=00037879007a");
        assertThat(lines.get(2)).isEqualTo("type=2563 flags=401 fam=10 1=" + KP + " 3=6300 7=6e617400 4{1=00000003 2=ffffff9c}");
        assertThat(lines.get(3)).isEqualTo("type=2566 flags=c01 fam=10 1=" + KP + " 2=6300 4{1{1=696d6d65646961746500 2{1=00000000 2{2{1=fffffffd 2=6400}}}}}");
        assertThat(lines.get(4)).isEqualTo("type=2568 flags=1 fam=10 1=" + KP + " 2=6300");
        assertThat(lines.get(5)).isEqualTo("type=2562 flags=5 fam=10 1=" + KP);
        assertThat(b.size()).isEqualTo(5);
        assertThat(b.describe(2)).isEqualTo("NEWRULE ip6 kp c");
    }

    @Test
    void framingSequenceNumbersAndTheAcknowledgementOfTheLastMessageOnly() {
        NfBatch b = new NfBatch();
        b.flushSet(NfFamily.IPV4, "kp", "a");
        b.deleteSet(NfFamily.IPV4, "kp", "b");
        ByteBuffer bb = ByteBuffer.wrap(bytes(b.encode(100, true))).order(ByteOrder.nativeOrder());
        List<int[]> headers = new ArrayList<>();
        for (int at = 0; at < bb.limit(); at += (bb.getInt(at) + 3) & ~3) {
            headers.add(new int[] {bb.getShort(at + 4) & 0xffff, bb.getShort(at + 6) & 0xffff, bb.getInt(at + 8)});
        }
        assertThat(headers).extracting(h -> h[0]).containsExactly(16, 2574, 2571, 17);
        assertThat(headers).extracting(h -> h[2]).containsExactly(100, 101, 102, 103);
        assertThat(headers).extracting(h -> h[1] & 0x4).containsExactly(0, 0, 4, 0);
        // The begin message names the nf_tables subsystem (res_id 10, network order).
        assertThat(bb.get(18)).isZero();
        assertThat(bb.get(19)).isEqualTo((byte) 10);
        // A dry run has no end message.
        byte[] dry = bytes(b.encode(7, false));
        assertThat(dry.length).isEqualTo(bb.limit() - 20);
    }

    @Test
    void longElementListsAreSplitOverMessagesOfTheSameOperation() {
        NfBatch b = new NfBatch();
        List<NfElement> many = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            many.add(NfElement.of(new byte[] {10, 0, (byte) (i >> 8), (byte) i}));
        }
        b.addElements(NfFamily.IPV4, "kp", "big", 0, many);
        b.deleteSet(NfFamily.IPV4, "kp", "other");
        assertThat(b.size()).isEqualTo(2);
        assertThat(b.messages()).isGreaterThan(2);
        assertThat(b.operationOf(0)).isZero();
        assertThat(b.operationOf(b.messages() - 2)).isZero();
        assertThat(b.operationOf(b.messages() - 1)).isEqualTo(1);
        // Every element is there once.
        long elements = b.dump().lines().filter(l -> l.startsWith("type=2572")).mapToLong(l -> l.split("1\\{1\\{1=").length - 1).sum();
        assertThat(elements).isEqualTo(5000);
    }

    @Test
    void aTailSplitOffAndAppendedIsTheBatchWrittenWholeInPlaceOrGrown() {
        NfSetSpec spec = new NfSetSpec("s", 0, 7, 4, 0, 0, 0, 0, null);
        NfBatch whole = new NfBatch();
        whole.addTable(NfFamily.IPV4, "kp", null);
        whole.addSet(NfFamily.IPV4, "kp", spec);
        whole.deleteSet(NfFamily.IPV4, "kp", "x");
        whole.addSet(NfFamily.IPV4, "kp", spec);
        whole.flushSet(NfFamily.IPV4, "kp", "s");
        // 4096 bytes: both parts fit their shares and are joined in place; 64: both grow on their own.
        for (int room : new int[] {4096, 64}) {
            NfBatch head = new NfBatch(room);
            NfBatch tail = head.splitOff(room / 2);
            tail.startSetIdsAt(2);
            tail.deleteSet(NfFamily.IPV4, "kp", "x");
            assertThat(tail.addSet(NfFamily.IPV4, "kp", spec)).isEqualTo(2);
            tail.flushSet(NfFamily.IPV4, "kp", "s");
            head.addTable(NfFamily.IPV4, "kp", null);
            assertThat(head.addSet(NfFamily.IPV4, "kp", spec)).isEqualTo(1);
            head.append(tail);
            assertThat(head.dump()).as("room %d", room).isEqualTo(whole.dump());
            assertThat(bytes(head.encode(5, true))).isEqualTo(bytes(whole.encode(5, true)));
            assertThat(head.size()).isEqualTo(5);
            assertThat(head.describe(3)).isEqualTo(whole.describe(3));
            assertThat(head.nextSetId()).isEqualTo(3);
        }
        // A tail whose set ids do not go on from the head's, a second split, a foreign tail.
        NfBatch head = new NfBatch();
        NfBatch tail = head.splitOff(64);
        tail.startSetIdsAt(3);
        head.addSet(NfFamily.IPV4, "kp", spec);
        assertThatThrownBy(() -> head.append(tail)).isInstanceOf(IllegalStateException.class).hasMessageContaining("start at 3");
        assertThatThrownBy(() -> head.splitOff(64)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new NfBatch().append(tail)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new NfBatch().startSetIdsAt(2)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void misuseIsRefused() {
        assertThatThrownBy(() -> new NfBatch().addElements(NfFamily.IPV4, "kp", "s", 0, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NfVerdict(NfVerdict.JUMP, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NfExpr.reg32(16)).isInstanceOf(IllegalArgumentException.class);
        assertThat(NfExpr.reg32(0)).isEqualTo(1);
        assertThat(NfExpr.reg32(4)).isEqualTo(2);
        assertThat(NfExpr.reg32(9)).isEqualTo(17);
    }

    private static byte[] bytes(NfBatch.Encoded e) {
        return e.toByteArray();
    }
}

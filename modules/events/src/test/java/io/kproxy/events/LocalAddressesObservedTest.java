package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.NodeName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The node's local addresses: normalised in the record, one canonical encoding, damage refused. */
class LocalAddressesObservedTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
    private static final NodeName NODE = new NodeName("worker-1");

    private static IpAddress ip(String s) {
        return IpAddress.parse(s);
    }

    @Test
    void addressesAreSortedWithoutDuplicates() {
        LocalAddressesObserved e = new LocalAddressesObserved(NODE, List.of(ip("fd00::2"), ip("203.0.113.1"), ip("192.168.0.2"),
                ip("203.0.113.1")));
        assertThat(e.addresses()).containsExactly(ip("192.168.0.2"), ip("203.0.113.1"), ip("fd00::2"));
        assertThat(e).isEqualTo(new LocalAddressesObserved(NODE, List.of(ip("192.168.0.2"), ip("fd00::2"), ip("203.0.113.1"))));
        assertThat(new LocalAddressesObserved(NODE, List.of()).addresses()).isEmpty();
        assertThatThrownBy(() -> new LocalAddressesObserved(null, List.of())).isInstanceOf(IllegalArgumentException.class);
        List<IpAddress> many = new ArrayList<>();
        for (int i = 0; i <= LocalAddressesObserved.MAX_ADDRESSES; i++) {
            many.add(IpAddress.ofV4(0x0A000000 + i));
        }
        assertThatThrownBy(() -> new LocalAddressesObserved(NODE, many)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void roundTripAndCanonical() {
        for (LocalAddressesObserved e : List.of(new LocalAddressesObserved(NODE, List.of()),
                new LocalAddressesObserved(NODE, List.of(ip("2001:db8::1"), ip("10.0.0.1"))))) {
            byte[] b = EventCodec.encode(T, "engine", e);
            Envelope back = EventCodec.decode(7, b);
            assertThat(back.event()).isEqualTo(e);
            assertThat(back.source()).isEqualTo("engine");
            assertThat(EventCodec.encode(back)).isEqualTo(b);
            assertThat(EventCodec.peekType(b, 0, b.length)).isEqualTo(EventType.LOCAL_ADDRESSES_OBSERVED);
        }
    }

    @Test
    void aNonCanonicalBodyIsDamage() {
        // unsorted, duplicated, not the canonical spelling, not an address: no writer makes these
        for (List<String> body : List.of(List.of("10.0.0.2", "10.0.0.1"), List.of("10.0.0.1", "10.0.0.1"), List.of("fd00:0::1"),
                List.of("not-an-ip"))) {
            byte[] b = hand(body);
            assertThatThrownBy(() -> EventCodec.decode(0, b)).as(body.toString()).isInstanceOf(EventDecodeException.class);
        }
        assertThat(EventCodec.decode(0, hand(List.of("10.0.0.1", "fd00::1"))).event())
                .isEqualTo(new LocalAddressesObserved(NODE, List.of(ip("10.0.0.1"), ip("fd00::1"))));
    }

    private static byte[] hand(List<String> addresses) {
        WireWriter w = new WireWriter();
        w.u8(1);
        w.u8(EventType.LOCAL_ADDRESSES_OBSERVED.tag());
        w.zigzag(T.getEpochSecond());
        w.varint(0);
        w.string("engine");
        w.string(NODE.value());
        w.varint(addresses.size());
        addresses.forEach(w::string);
        return w.toByteArray();
    }
}

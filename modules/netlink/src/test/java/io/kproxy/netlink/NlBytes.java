package io.kproxy.netlink;

import java.nio.ByteOrder;
import java.util.HexFormat;

/** Test helper: encoded messages as hex, and expected hex written with spaces between fields. */
final class NlBytes {

    private NlBytes() {
    }

    static String hex(NlWriter w) {
        return HexFormat.of().formatHex(w.bytes());
    }

    static String hex(NlMessages m) {
        return HexFormat.of().formatHex(m.bytes());
    }

    /** The expected bytes, fields separated by spaces for reading; the layouts are written for a little-endian host (x86-64, arm64). */
    static String expected(String spaced) {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new AssertionError("these expected bytes are written for a little-endian host");
        }
        return spaced.replace(" ", "").replace("\n", "");
    }
}

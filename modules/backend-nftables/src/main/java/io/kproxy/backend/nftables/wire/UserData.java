package io.kproxy.backend.nftables.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * nft's user data: type-length-value records of one byte type and one byte length, values in
 * host byte order, nested records as values (libnftnl {@code include/libnftnl/udata.h}). The
 * kernel stores it opaquely; {@code nft list} reads it back to print comments and set
 * declarations. Not thread-safe.
 */
final class UserData {

    // NFTNL_UDATA_SET_*
    static final int SET_KEYBYTEORDER = 0;
    static final int SET_DATABYTEORDER = 1;
    static final int SET_MERGE_ELEMENTS = 2;
    static final int SET_KEY_TYPEOF = 3;
    static final int SET_DATA_TYPEOF = 4;
    static final int SET_DATA_INTERVAL = 6;
    static final int SET_COMMENT = 7;
    // NFTNL_UDATA_SET_TYPEOF_*
    static final int TYPEOF_EXPR = 0;
    static final int TYPEOF_DATA = 1;
    // nft's byte orders (BYTEORDER_*)
    static final int BYTEORDER_INVALID = 0;
    static final int BYTEORDER_HOST = 1;
    static final int BYTEORDER_BIG = 2;
    // nft's expression kinds (enum expr_types), as stored in a typeof
    static final int EXPR_VERDICT = 1;
    static final int EXPR_PAYLOAD = 7;
    static final int EXPR_CONCAT = 13;
    static final int EXPR_NUMGEN = 23;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    UserData u32(int type, int value) {
        return raw(type, new byte[] {(byte) value, (byte) (value >>> 8), (byte) (value >>> 16), (byte) (value >>> 24)});
    }

    UserData string(int type, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return raw(type, z);
    }

    UserData nest(int type, UserData inner) {
        return raw(type, inner.bytes());
    }

    UserData raw(int type, byte[] value) {
        if (value.length > 255) {
            throw new Unsupported("user data longer than 255 bytes");
        }
        out.write(type);
        out.write(value.length);
        out.writeBytes(value);
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    /** A comment record (type 0 for tables, chains, rules and elements). */
    static byte[] comment(String text) {
        return new UserData().string(0, text).bytes();
    }

    /** {@code typeof} of a payload field: nft's protocol description and field template numbers. */
    static UserData payloadTypeof(int desc, int field) {
        return new UserData().u32(TYPEOF_EXPR, EXPR_PAYLOAD).nest(TYPEOF_DATA, new UserData().u32(0, desc).u32(1, field));
    }
}

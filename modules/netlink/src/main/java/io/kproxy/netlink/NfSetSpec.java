package io.kproxy.netlink;

/**
 * A set or map to create ({@code NFT_MSG_NEWSET}): its flags ({@code NFT_SET_*}), key and data
 * types as nft numbers them (a concatenation's type packs each field's type in 6 bits), their
 * lengths, a timeout in milliseconds (0: none), and nft's user data (how {@code nft list} prints
 * the declaration). Anonymous sets (flag {@link #ANONYMOUS}) are named {@code __set%d}; the
 * kernel numbers them. Byte arrays are not copied. Immutable.
 *
 * @param name     the set's name
 * @param flags    {@code NFT_SET_*} flags
 * @param keyType  nft's key type number
 * @param keyLen   key length in bytes (fields padded to 4)
 * @param dataType nft's data type number, {@link #VERDICT_DATA} for a verdict map; ignored without {@link #MAP}
 * @param dataLen  data length in bytes (0 for verdicts)
 * @param timeoutMillis the default element timeout, 0 for none
 * @param size     {@code NFTA_SET_DESC_SIZE}, 0 for none
 * @param userdata nft's {@code NFTA_SET_USERDATA}, or null
 */
public record NfSetSpec(String name, int flags, int keyType, int keyLen, int dataType, int dataLen, long timeoutMillis, int size,
        byte[] userdata) {

    public static final int ANONYMOUS = 0x1;
    public static final int CONSTANT = 0x2;
    public static final int INTERVAL = 0x4;
    public static final int MAP = 0x8;
    public static final int TIMEOUT = 0x10;
    public static final int EVAL = 0x20;
    public static final int VERDICT_DATA = 0xffffff00;

    public NfSetSpec {
        if (name == null || name.isEmpty() || keyLen <= 0) {
            throw new IllegalArgumentException("a set has a name and a key length");
        }
    }

    public boolean isMap() {
        return (flags & MAP) != 0;
    }

    /** Equal fields, the user data by content (a record compares arrays by identity). */
    @Override
    public boolean equals(Object o) {
        return o instanceof NfSetSpec x && name.equals(x.name) && flags == x.flags && keyType == x.keyType && keyLen == x.keyLen
                && dataType == x.dataType && dataLen == x.dataLen && timeoutMillis == x.timeoutMillis && size == x.size
                && java.util.Arrays.equals(userdata, x.userdata);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + java.util.Arrays.hashCode(userdata);
    }
}

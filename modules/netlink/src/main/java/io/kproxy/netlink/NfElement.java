package io.kproxy.netlink;

/**
 * One set or map element as the kernel takes it ({@code NFTA_SET_ELEM_*}): the key, for
 * interval sets the flag {@link #INTERVAL_END} on the element that closes a range, and for maps
 * either data bytes or a verdict. Keys and data are laid out as the set declares them
 * (concatenated fields each padded to 4 bytes, network byte order for addresses and ports).
 * Byte arrays are not copied. Immutable once built.
 *
 * @param key      the key bytes
 * @param flags    {@code NFT_SET_ELEM_*} flags (0: none)
 * @param data     map data, or null
 * @param verdict  verdict-map data, or null
 * @param userdata {@code NFTA_SET_ELEM_USERDATA} (an element comment), or null
 */
public record NfElement(byte[] key, int flags, byte[] data, NfVerdict verdict, byte[] userdata) {

    public static final int INTERVAL_END = 1;

    public NfElement {
        if (key == null || key.length == 0) {
            throw new IllegalArgumentException("an element has a key");
        }
        if (data != null && verdict != null) {
            throw new IllegalArgumentException("data or verdict, not both");
        }
    }

    public static NfElement of(byte[] key) {
        return new NfElement(key, 0, null, null, null);
    }

    /** The element closing an interval that ends just before {@code key}. */
    public static NfElement intervalEnd(byte[] key) {
        return new NfElement(key, INTERVAL_END, null, null, null);
    }

    void encode(NlWriter w) {
        int e = w.beginNest(1); // NFTA_LIST_ELEM
        NfEncoding.value(w, 1, key); // NFTA_SET_ELEM_KEY
        if (flags != 0) {
            w.u32Be(3, flags);
        }
        if (data != null) {
            NfEncoding.value(w, 2, data); // NFTA_SET_ELEM_DATA
        } else if (verdict != null) {
            int d = w.beginNest(2);
            verdict.encode(w);
            w.endNest(d);
        }
        if (userdata != null) {
            w.attr(6, userdata);
        }
        w.endNest(e);
    }
}

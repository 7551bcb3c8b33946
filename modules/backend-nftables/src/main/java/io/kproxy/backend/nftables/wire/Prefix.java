package io.kproxy.backend.nftables.wire;

/** Address prefixes as bytes: network, last address, mask. Pure. */
final class Prefix {

    private Prefix() {
    }

    static byte[] mask(int len, int prefix) {
        if (prefix < 0 || prefix > len * 8) {
            throw new Unsupported("prefix length " + prefix);
        }
        byte[] m = new byte[len];
        for (int i = 0; i < len; i++) {
            int bits = Math.clamp(prefix - i * 8L, 0, 8);
            m[i] = (byte) (0xff << (8 - bits));
        }
        return m;
    }

    static byte[] network(byte[] addr, int prefix) {
        byte[] m = mask(addr.length, prefix);
        byte[] out = new byte[addr.length];
        for (int i = 0; i < addr.length; i++) {
            out[i] = (byte) (addr[i] & m[i]);
        }
        return out;
    }

    static byte[] last(byte[] addr, int prefix) {
        byte[] m = mask(addr.length, prefix);
        byte[] out = new byte[addr.length];
        for (int i = 0; i < addr.length; i++) {
            out[i] = (byte) (addr[i] | ~m[i]);
        }
        return out;
    }
}

package io.kproxy.source.kube.internal;

import java.util.HexFormat;

/**
 * SipHash-2-4 with its 128-bit output (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * 2012; the 128-bit variant of the authors' reference implementation): a keyed hash that, with a
 * secret key, an attacker cannot steer into collisions. Used by {@code ObjectFingerprint}, where
 * it replaced SHA-256: with only the C1 compiler (the agent's default) SHA-256 runs as plain
 * compiled Java, three to four times slower on the same bytes ({@code FingerprintBenchmark};
 * docs/benchmarks.md, "Scale", seventh pass).
 * Stateless and thread-safe.
 */
public final class SipHash128 {

    private SipHash128() {
    }

    /** The two 64-bit words of a hash. */
    public record Words(long first, long second) {

        /** The 16 bytes as the reference implementation writes them ({@code first}'s 8 little-endian, then {@code second}'s), in hex. */
        public String hex() {
            return HexFormat.of().toHexDigits(Long.reverseBytes(first)) + HexFormat.of().toHexDigits(Long.reverseBytes(second));
        }
    }

    /**
     * The hash of {@code bytes[0, length)} under the key {@code (k0, k1)} (the key's 16 bytes read
     * as two little-endian words).
     */
    public static Words hash(long k0, long k1, byte[] bytes, int length) {
        State s = new State(k0, k1);
        int whole = length - (length & 7);
        for (int i = 0; i < whole; i += 8) {
            s.absorb(word(bytes, i));
        }
        long last = ((long) length) << 56;
        for (int i = whole; i < length; i++) {
            last |= (bytes[i] & 0xffL) << (8 * (i - whole));
        }
        s.absorb(last);
        s.v2 ^= 0xee;
        s.rounds(4);
        long first = s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
        s.v1 ^= 0xdd;
        s.rounds(4);
        return new Words(first, s.v0 ^ s.v1 ^ s.v2 ^ s.v3);
    }

    /** The four words of one hash in progress. */
    private static final class State {
        long v0;
        long v1;
        long v2;
        long v3;

        State(long k0, long k1) {
            v0 = k0 ^ 0x736f6d6570736575L;
            v1 = k1 ^ 0x646f72616e646f6dL ^ 0xee;
            v2 = k0 ^ 0x6c7967656e657261L;
            v3 = k1 ^ 0x7465646279746573L;
        }

        /** One message word, with the two compression rounds. */
        void absorb(long m) {
            v3 ^= m;
            rounds(2);
            v0 ^= m;
        }

        void rounds(int n) {
            for (int r = 0; r < n; r++) {
                v0 += v1;
                v1 = Long.rotateLeft(v1, 13) ^ v0;
                v0 = Long.rotateLeft(v0, 32);
                v2 += v3;
                v3 = Long.rotateLeft(v3, 16) ^ v2;
                v0 += v3;
                v3 = Long.rotateLeft(v3, 21) ^ v0;
                v2 += v1;
                v1 = Long.rotateLeft(v1, 17) ^ v2;
                v2 = Long.rotateLeft(v2, 32);
            }
        }
    }

    private static long word(byte[] b, int i) {
        return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24
                | (b[i + 4] & 0xffL) << 32 | (b[i + 5] & 0xffL) << 40 | (b[i + 6] & 0xffL) << 48 | (b[i + 7] & 0xffL) << 56;
    }
}

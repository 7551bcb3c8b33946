package io.kproxy.backend;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;

/**
 * The one definition of {@link Plan#rulesetHash()}, shared by every backend: SHA-256 over the
 * digests of the ruleset's parts, combined so that a backend keeps one digest per part and their
 * sum in its persistent plan, and a sync re-digests only the parts it re-rendered and finds the
 * hash in O(change) (the nftables backend names the generation marker of every transaction after
 * it: docs/backends/nftables.md, "Restart without rewriting").
 *
 * <p>A ruleset is a sequence of <em>sections</em> (one per family, IPv4 first); a section is a
 * <em>head</em> (the node-wide part of that family: tables, base chains, top-level rules) and
 * its <em>parts</em> (one per service port). Each head and part is digested on its own as text in
 * the backend's language ({@link #digest}); the ruleset hash is
 *
 * <pre>
 *   hex(SHA-256( for each section: digest(head) ‖ uint32_be(part count) ‖ uint256_be(Σ digest(part) mod 2^256) ))
 * </pre>
 *
 * The parts enter as a sum (each digest read as a 256-bit big-endian unsigned number), not in
 * order: a part's text names its service port, so a set of parts is one ruleset whatever order
 * the text writes them in, and a sum is updated by subtracting the old digest and adding the new
 * one ({@link Sum}). The sum is an integrity check against a ruleset that differs by accident (a
 * restart's rendering against the kernel's marker, a replay against the recorded hash), not a
 * defence against someone choosing parts to collide: whoever can write a node's rules does not
 * need a collision.
 *
 * What a head's or a part's text holds is the backend's choice, stated in its plan's Javadoc;
 * it must be a pure function of the part alone (not of other parts), so that the incremental
 * and the full render of one state give the same hash.
 *
 * <p>Pure and thread-safe; {@link Builder} is not thread-safe.
 */
public final class RulesetHash {

    private static final MessageDigest PROTOTYPE = sha256();

    private RulesetHash() {
    }

    /** The SHA-256 of one head or part. Immutable; equal when the bytes are. */
    public static final class Digest {
        private final byte[] bytes;

        private Digest(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Digest d && Arrays.equals(bytes, d.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return HexFormat.of().formatHex(bytes);
        }
    }

    /** The digest of {@code text} (UTF-8). */
    public static Digest digest(CharSequence text) {
        return new Digest(newDigest().digest(text.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The sum of a section's part digests modulo 2^256 and how many parts it holds. Immutable;
     * {@link #plus} and {@link #minus} make a new one, so that a persistent plan keeps its own.
     */
    public static final class Sum {
        /** No parts. */
        public static final Sum EMPTY = new Sum(new long[4], 0);

        /** Big-endian 64-bit limbs: {@code limbs[0]} is the most significant. */
        private final long[] limbs;
        private final int count;

        private Sum(long[] limbs, int count) {
            this.limbs = limbs;
            this.count = count;
        }

        /** The sum of {@code parts}. */
        public static Sum of(Collection<Digest> parts) {
            long[] acc = new long[4];
            for (Digest d : parts) {
                add(acc, d.bytes, 1);
            }
            return new Sum(acc, parts.size());
        }

        /** This sum with one more part. */
        public Sum plus(Digest part) {
            long[] next = limbs.clone();
            add(next, part.bytes, 1);
            return new Sum(next, count + 1);
        }

        /** This sum without {@code part}, which it must hold. */
        public Sum minus(Digest part) {
            if (count == 0) {
                throw new IllegalStateException("no part to remove");
            }
            long[] next = limbs.clone();
            add(next, part.bytes, -1);
            return new Sum(next, count - 1);
        }

        /** This sum with {@code old} replaced by {@code next}; either may be null (none). */
        public Sum replace(Digest old, Digest next) {
            Sum s = old == null ? this : minus(old);
            return next == null ? s : s.plus(next);
        }

        /** How many parts. */
        public int count() {
            return count;
        }

        /** Adds ({@code sign} 1) or subtracts ({@code sign} -1) the 32-byte big-endian number {@code d} to {@code acc}, mod 2^256. */
        private static void add(long[] acc, byte[] d, int sign) {
            long carry = 0; // the borrow when subtracting
            for (int i = 3; i >= 0; i--) {
                long x = 0;
                for (int b = 0; b < 8; b++) {
                    x = x << 8 | (d[i * 8 + b] & 0xffL);
                }
                long a = acc[i];
                if (sign > 0) {
                    long r = a + x + carry;
                    carry = Long.compareUnsigned(r, a) < 0 || carry == 1 && r == a ? 1 : 0;
                    acc[i] = r;
                } else {
                    long r = a - x - carry;
                    carry = Long.compareUnsigned(a, x) < 0 || carry == 1 && a == x ? 1 : 0;
                    acc[i] = r;
                }
            }
        }

        private byte[] bytes() {
            byte[] out = new byte[32];
            for (int i = 0; i < 4; i++) {
                for (int b = 0; b < 8; b++) {
                    out[i * 8 + b] = (byte) (limbs[i] >>> 56 - 8 * b);
                }
            }
            return out;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Sum s && count == s.count && Arrays.equals(limbs, s.limbs);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(limbs) + count;
        }

        @Override
        public String toString() {
            return count + ":" + HexFormat.of().formatHex(bytes());
        }
    }

    /** A builder of one ruleset hash. */
    public static Builder builder() {
        return new Builder();
    }

    /** Accumulates sections in order. Not thread-safe; one use. */
    public static final class Builder {
        private final MessageDigest md = newDigest();
        private final byte[] count = new byte[4];

        private Builder() {
        }

        /** A section: its head and the sum of its parts. */
        public Builder section(Digest head, Sum parts) {
            md.update(head.bytes);
            int n = parts.count();
            count[0] = (byte) (n >>> 24);
            count[1] = (byte) (n >>> 16);
            count[2] = (byte) (n >>> 8);
            count[3] = (byte) n;
            md.update(count);
            md.update(parts.bytes());
            return this;
        }

        /** A section: {@link #section(Digest, Sum)} with the sum of {@code parts} (O(parts): for rulesets that keep no {@link Sum}). */
        public Builder section(Digest head, Collection<Digest> parts) {
            return section(head, Sum.of(parts));
        }

        /** The lower-case hex ruleset hash (64 characters). */
        public String hex() {
            return HexFormat.of().formatHex(md.digest());
        }
    }

    private static MessageDigest newDigest() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return sha256();
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    }
}

package io.kproxy.backend;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;

/**
 * The one definition of {@link Plan#rulesetHash()}, shared by every backend: SHA-256 over the
 * ordered digests of the ruleset's parts, so that a backend keeps one digest per part in its
 * persistent plan and a sync re-digests only the parts it re-rendered.
 *
 * <p>A ruleset is a sequence of <em>sections</em> (one per family, IPv4 first); a section is a
 * <em>head</em> (the node-wide part of that family: tables, base chains, top-level rules) followed
 * by its <em>parts</em> (one per service port, in service-port order). Each head and part is
 * digested on its own as text in the backend's language ({@link #digest}); the ruleset hash is
 *
 * <pre>
 *   hex(SHA-256( for each section: digest(head) ‖ uint32_be(part count) ‖ digest(part)… ))
 * </pre>
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

    /** A builder of one ruleset hash. */
    public static Builder builder() {
        return new Builder();
    }

    /** Accumulates sections and parts in order. Not thread-safe; one use. */
    public static final class Builder {
        private final MessageDigest md = newDigest();
        private final byte[] count = new byte[4];

        private Builder() {
        }

        /** Starts a section: its head and how many parts follow. */
        public Builder section(Digest head, int parts) {
            if (parts < 0) {
                throw new IllegalArgumentException("parts must not be negative");
            }
            md.update(head.bytes);
            count[0] = (byte) (parts >>> 24);
            count[1] = (byte) (parts >>> 16);
            count[2] = (byte) (parts >>> 8);
            count[3] = (byte) parts;
            md.update(count);
            return this;
        }

        /** A whole section: {@link #section(Digest, int)} with the parts' count, then every part in order. */
        public Builder section(Digest head, Collection<Digest> parts) {
            section(head, parts.size());
            parts.forEach(this::part);
            return this;
        }

        /** The next part of the current section. */
        public Builder part(Digest part) {
            md.update(part.bytes);
            return this;
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

package io.kproxy.source.kube;

import io.kproxy.events.KubeObjects;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;

/**
 * What the source compares to decide whether an object changed: its {@code resourceVersion}
 * and a hash of its content as an observation would record it (trimmed by
 * {@link KubeObjects#trim}). Content is compared, not only the version, because a replacement
 * API server (or the test mock) may hand out the same version for different content.
 *
 * <p>The hash is SHA-256 (first 128 bits, hex) over a canonical form: object keys sorted,
 * integers and decimals told apart, so two trees that are {@link Json#equals equal} always hash
 * alike whatever their key order. Immutable and thread-safe; no component is null.
 *
 * @param resourceVersion the object's {@code metadata.resourceVersion} ("" when absent)
 * @param contentHash     32 lowercase hex digits
 */
public record ObjectFingerprint(String resourceVersion, String contentHash) {

    public ObjectFingerprint {
        if (resourceVersion == null) {
            throw new InvalidValueException("resourceVersion", "null", "use \"\" for unknown");
        }
        if (contentHash == null || contentHash.length() != 32) {
            throw new InvalidValueException("contentHash", String.valueOf(contentHash), "expected 32 hex digits");
        }
    }

    /** The fingerprint of {@code object} as an observation would record it (trimmed first). */
    public static ObjectFingerprint of(Json.Obj object) {
        Json.Obj trimmed = KubeObjects.trim(object);
        Canonical out = new Canonical();
        out.value(trimmed);
        MessageDigest digest = sha256();
        digest.update(out.bytes, 0, out.length);
        byte[] sum = digest.digest();
        return new ObjectFingerprint(KubeObjects.resourceVersion(trimmed), HexFormat.of().formatHex(sum, 0, 16));
    }

    /** The canonical bytes of a tree, gathered in one buffer so that the digest runs once. */
    private static final class Canonical {
        private byte[] bytes = new byte[1024];
        private int length;

        void value(Json value) {
            switch (value) {
                case Json.Obj o -> {
                    Map<String, Json> fields = o.fields();
                    String[] keys = fields.keySet().toArray(new String[0]);
                    Arrays.sort(keys);
                    put((byte) '{');
                    putLong(keys.length);
                    for (String k : keys) {
                        putText(k);
                        value(fields.get(k));
                    }
                }
                case Json.Arr a -> {
                    put((byte) '[');
                    putLong(a.items().size());
                    for (Json item : a.items()) {
                        value(item);
                    }
                }
                case Json.Str s -> {
                    put((byte) 's');
                    putText(s.value());
                }
                case Json.Int i -> {
                    put((byte) 'i');
                    putLong(i.value());
                }
                case Json.Dec d -> {
                    put((byte) 'd');
                    putLong(Double.doubleToLongBits(d.value()));
                }
                case Json.Bool b -> put(b.value() ? (byte) 't' : (byte) 'f');
                case Json.Null n -> put((byte) 'n');
            }
        }

        private void putText(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            putLong(utf8.length);
            ensure(utf8.length);
            System.arraycopy(utf8, 0, bytes, length, utf8.length);
            length += utf8.length;
        }

        private void putLong(long v) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                bytes[length++] = (byte) (v >>> shift);
            }
        }

        private void put(byte b) {
            ensure(1);
            bytes[length++] = b;
        }

        private void ensure(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256 (java.security.MessageDigest's Javadoc).
            throw new IllegalStateException("SHA-256 is unavailable", e);
        }
    }
}

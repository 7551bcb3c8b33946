package io.kproxy.source.kube;

import io.kproxy.events.KubeObjects;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
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
        MessageDigest digest = sha256();
        feed(digest, trimmed);
        byte[] sum = digest.digest();
        return new ObjectFingerprint(KubeObjects.resourceVersion(trimmed), HexFormat.of().formatHex(sum, 0, 16));
    }

    private static void feed(MessageDigest d, Json value) {
        switch (value) {
            case Json.Obj o -> {
                List<String> keys = new ArrayList<>(o.fields().keySet());
                keys.sort(null);
                d.update((byte) '{');
                putLength(d, keys.size());
                Map<String, Json> fields = o.fields();
                for (String k : keys) {
                    putText(d, k);
                    feed(d, fields.get(k));
                }
            }
            case Json.Arr a -> {
                d.update((byte) '[');
                putLength(d, a.items().size());
                for (Json item : a.items()) {
                    feed(d, item);
                }
            }
            case Json.Str s -> {
                d.update((byte) 's');
                putText(d, s.value());
            }
            case Json.Int i -> {
                d.update((byte) 'i');
                putLong(d, i.value());
            }
            case Json.Dec dec -> {
                d.update((byte) 'd');
                putLong(d, Double.doubleToLongBits(dec.value()));
            }
            case Json.Bool b -> d.update(b.value() ? (byte) 't' : (byte) 'f');
            case Json.Null n -> d.update((byte) 'n');
        }
    }

    private static void putText(MessageDigest d, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        putLength(d, bytes.length);
        d.update(bytes);
    }

    private static void putLength(MessageDigest d, int n) {
        putLong(d, n);
    }

    private static void putLong(MessageDigest d, long v) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            d.update((byte) (v >>> shift));
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

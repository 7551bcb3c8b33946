package io.kproxy.source.kube;

import io.kproxy.events.KubeObjects;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.source.kube.internal.SipHash128;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;

/**
 * What the source compares to decide whether an object changed: its {@code resourceVersion}
 * and a hash of its content as an observation would record it (trimmed by
 * {@link KubeObjects#trim}). Content is compared, not only the version, because a replacement
 * API server (or the test mock) may hand out the same version for different content.
 *
 * <p>The hash is SipHash-2-4's 128-bit output ({@link SipHash128}) over a canonical form: object
 * keys sorted, integers and decimals told apart, so two trees that are {@link Json#equals equal}
 * always hash alike whatever their key order. Its key is drawn at random once per process, so
 * nobody who writes objects can aim two contents at one hash, and a fingerprint means nothing
 * outside the process that made it: fingerprints are compared in memory only, never stored
 * (the known objects of a restart are fingerprinted again from the log's records).
 * Immutable and thread-safe; no component is null.
 *
 * @param resourceVersion the object's {@code metadata.resourceVersion} ("" when absent)
 * @param hashFirst       the hash's first 64-bit word
 * @param hashSecond      its second
 */
public record ObjectFingerprint(String resourceVersion, long hashFirst, long hashSecond) {

    public ObjectFingerprint {
        if (resourceVersion == null) {
            throw new InvalidValueException("resourceVersion", "null", "use \"\" for unknown");
        }
    }

    /** The fingerprint of {@code object} as an observation would record it (trimmed first). */
    public static ObjectFingerprint of(Json.Obj object) {
        return of(object, ProcessKey.K0, ProcessKey.K1);
    }

    /** The same under the key {@code (k0, k1)}; for tests of the canonical form. */
    static ObjectFingerprint of(Json.Obj object, long k0, long k1) {
        Json.Obj trimmed = KubeObjects.trim(object);
        Canonical out = new Canonical();
        out.value(trimmed);
        SipHash128.Words sum = SipHash128.hash(k0, k1, out.bytes, out.length);
        return new ObjectFingerprint(KubeObjects.resourceVersion(trimmed), sum.first(), sum.second());
    }

    /** The content hash as 32 lowercase hex digits (its 16 bytes as SipHash writes them); for logs and tests. */
    public String contentHash() {
        return new SipHash128.Words(hashFirst, hashSecond).hex();
    }

    /** This process's hash key, drawn on first use. */
    private static final class ProcessKey {
        private static final long K0;
        private static final long K1;

        static {
            SecureRandom random = new SecureRandom();
            K0 = random.nextLong();
            K1 = random.nextLong();
        }
    }

    /** The canonical bytes of a tree, gathered in one buffer so that the digest runs once. */
    private static final class Canonical {
        private byte[] bytes = new byte[1024];
        private int length;

        void value(Json value) {
            switch (value) {
                case Json.Obj o -> {
                    int n = o.fields().size();
                    String[] keys = new String[n];
                    Json[] values = new Json[n];
                    sorted(o.fields(), keys, values);
                    put((byte) '{');
                    putLong(n);
                    for (int j = 0; j < n; j++) {
                        putText(keys[j]);
                        value(values[j]);
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

        /**
         * The fields in key order, into {@code keys} and {@code values}: an insertion sort over
         * one pass of the entries for the handful of keys most objects have (no lookup by key),
         * a sort and lookups beyond that (an object may carry thousands of annotations).
         */
        private static void sorted(Map<String, Json> fields, String[] keys, Json[] values) {
            if (keys.length > 16) {
                fields.keySet().toArray(keys);
                Arrays.sort(keys);
                for (int j = 0; j < keys.length; j++) {
                    values[j] = fields.get(keys[j]);
                }
                return;
            }
            int i = 0;
            for (Map.Entry<String, Json> e : fields.entrySet()) {
                String k = e.getKey();
                int j = i++;
                for (; j > 0 && keys[j - 1].compareTo(k) > 0; j--) {
                    keys[j] = keys[j - 1];
                    values[j] = values[j - 1];
                }
                keys[j] = k;
                values[j] = e.getValue();
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
}

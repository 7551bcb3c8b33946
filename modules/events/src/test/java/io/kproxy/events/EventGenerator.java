package io.kproxy.events;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.Printable;
import io.kproxy.model.ServiceRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded generator of valid events of every type, with realistic and adversarial JSON trees:
 * valid Unicode (supplementary planes included), nesting up to the codec's limit, big arrays,
 * empty containers, strings longer than the repeat-table limit, repeated keys and strings,
 * integers at {@code Long.MIN_VALUE}/{@code MAX_VALUE}, every kind of double. Not thread-safe.
 */
final class EventGenerator {

    /** Dictionary keys and a few others, so that objects mix dictionary refs, literals and table refs. */
    private static final List<String> KEY_POOL = List.of("name", "namespace", "labels", "annotations", "ports", "port", "protocol",
            "addresses", "conditions", "ready", "zone", "nodeName", "targetRef", "uid", "kubernetes.io/service-name", "app",
            "x", "y", "custom-key", "example.com/annotation", "", "ключ", "🔑", "a.b/c");
    private static final List<String> STRING_POOL = List.of("TCP", "UDP", "IPv4", "ClusterIP", "", "10.0.0.1", "Cluster", "Local",
            "zone-a", "default", "kube-system");

    private final Random rnd;

    EventGenerator(long seed) {
        this.rnd = new Random(seed);
    }

    Random random() {
        return rnd;
    }

    /** An event of the given type. */
    ClusterEvent event(EventType type) {
        return switch (type) {
            case SERVICE_OBSERVED -> {
                ServiceRef ref = new ServiceRef(label(), label());
                yield new ServiceObserved(ref, resourceVersion(), kubeObject(ref.namespace(), ref.name()));
            }
            case SERVICE_DELETED -> new ServiceDeleted(new ServiceRef(label(), label()), resourceVersion(), rnd.nextBoolean());
            case ENDPOINT_SLICE_OBSERVED -> {
                EndpointSliceRef ref = new EndpointSliceRef(label(), subdomain());
                yield new EndpointSliceObserved(ref, resourceVersion(), kubeObject(ref.namespace(), ref.name()));
            }
            case ENDPOINT_SLICE_DELETED -> new EndpointSliceDeleted(new EndpointSliceRef(label(), subdomain()), resourceVersion(), rnd.nextBoolean());
            case NODE_OBSERVED -> {
                NodeName node = new NodeName(subdomain());
                yield new NodeObserved(node, resourceVersion(), kubeObject("", node.value()));
            }
            case NODE_DELETED -> new NodeDeleted(new NodeName(subdomain()), resourceVersion(), rnd.nextBoolean());
            case SOURCE_SYNCED -> new SourceSynced(pick(ResourceKind.values()), resourceVersion());
            case SOURCE_RELISTED -> new SourceRelisted(pick(ResourceKind.values()), resourceVersion(), relistKeys());
            case CONFIG_RECORDED -> new ConfigRecorded(new NodeName(subdomain()), tree(0, 4) instanceof Json.Obj o ? o : Json.Obj.EMPTY);
            case SYNC_APPLIED -> new SyncApplied(nonEmpty(), 1 + (rnd.nextBoolean() ? rnd.nextInt(100) : rnd.nextLong() >>> 1),
                    offset(), pick(SyncKind.values()), nonEmpty(), duration());
            case SYNC_FAILED -> new SyncFailed(nonEmpty(), 1 + (rnd.nextBoolean() ? rnd.nextInt(100) : rnd.nextLong() >>> 1), offset(),
                    pick(SyncKind.values()), text(), rnd.nextBoolean(), duration());
            case DATAPLANE_PINNED -> new DataplanePinned(rnd.nextBoolean() ? rnd.nextInt(1000) : rnd.nextLong() >>> 1, text());
            case DATAPLANE_UNPINNED -> new DataplaneUnpinned(text());
            case SERVICE_CIDR_OBSERVED -> {
                String name = subdomain();
                yield new ServiceCIDRObserved(name, resourceVersion(), kubeObject("", name));
            }
            case SERVICE_CIDR_DELETED -> new ServiceCIDRDeleted(subdomain(), resourceVersion(), rnd.nextBoolean());
            case LOCAL_ADDRESSES_OBSERVED -> new LocalAddressesObserved(new NodeName(subdomain()), addresses());
        };
    }

    /** Up to eight addresses of both families, duplicates and any order (the record normalises them). */
    private List<IpAddress> addresses() {
        List<IpAddress> out = new ArrayList<>();
        int n = rnd.nextInt(9);
        for (int i = 0; i < n; i++) {
            out.add(rnd.nextBoolean() ? IpAddress.ofV4(rnd.nextInt()) : IpAddress.parse("fd00::" + Integer.toHexString(rnd.nextInt(0x10000))));
        }
        return out;
    }

    /** Any instant {@link Instant} can hold, biased towards the present, the epoch and its negative side. */
    Instant instant() {
        long seconds = switch (rnd.nextInt(5)) {
            case 0 -> Instant.MIN.getEpochSecond() + (long) (rnd.nextDouble() * (Instant.MAX.getEpochSecond() * 2.0));
            case 1 -> -rnd.nextInt(1_000_000) - 1L;
            case 2 -> rnd.nextBoolean() ? Instant.MIN.getEpochSecond() : Instant.MAX.getEpochSecond();
            default -> 1_767_225_600L + rnd.nextInt(100_000_000);
        };
        int nanos = switch (rnd.nextInt(3)) {
            case 0 -> 0;
            case 1 -> 999_999_999;
            default -> rnd.nextInt(1_000_000_000);
        };
        return Instant.ofEpochSecond(seconds, nanos);
    }

    String source() {
        return rnd.nextInt(4) == 0 ? text() : pick(new String[] {"source/kube", "engine", "cli", "recorder/kafka"});
    }

    /** A Kubernetes-shaped object whose metadata carries the identity, plus random extra content. */
    Json.Obj kubeObject(String namespace, String name) {
        LinkedHashMap<String, Json> meta = new LinkedHashMap<>();
        meta.put("name", Json.of(name));
        if (!namespace.isEmpty()) {
            meta.put("namespace", Json.of(namespace));
        }
        meta.put("resourceVersion", Json.of(Long.toString(rnd.nextLong() >>> 20)));
        if (rnd.nextBoolean()) {
            meta.put("labels", Json.obj("app", Json.of(label()), "kubernetes.io/service-name", Json.of(label())));
        }
        if (rnd.nextInt(5) == 0) {
            // trimmed by the record's constructor
            meta.put("managedFields", Json.arr(Json.obj("manager", Json.of("kubectl"))));
            meta.put("annotations", Json.obj(KubeObjects.LAST_APPLIED, Json.of("{\"big\":true}"), "keep", Json.of(text())));
        }
        LinkedHashMap<String, Json> o = new LinkedHashMap<>();
        o.put("apiVersion", Json.of("v1"));
        o.put("kind", Json.of("Thing"));
        o.put("metadata", new Json.Obj(meta));
        int extra = rnd.nextInt(4);
        for (int i = 0; i < extra; i++) {
            o.put(key(), tree(1, 4 + rnd.nextInt(3)));
        }
        if (rnd.nextInt(10) == 0) {
            o.put("deep", deep(WireReader.MAX_DEPTH - 1));
        }
        if (rnd.nextInt(20) == 0) {
            o.put("big", bigArray());
        }
        return new Json.Obj(o);
    }

    /** A value at {@code depth} (root = 0) whose subtree goes at most {@code maxDepth} deep. */
    Json tree(int depth, int maxDepth) {
        int kind = depth >= maxDepth ? rnd.nextInt(5) : rnd.nextInt(9);
        return switch (kind) {
            case 0 -> Json.of(text());
            case 1 -> integer();
            case 2 -> decimal();
            case 3 -> rnd.nextBoolean() ? Json.of(rnd.nextBoolean()) : Json.Null.INSTANCE;
            case 4 -> rnd.nextBoolean() ? Json.of(pick(STRING_POOL.toArray(String[]::new))) : Json.Obj.EMPTY;
            case 5, 6 -> {
                int n = rnd.nextInt(6);
                LinkedHashMap<String, Json> m = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    m.put(key(), tree(depth + 1, maxDepth));
                }
                yield new Json.Obj(m);
            }
            default -> {
                int n = rnd.nextInt(6);
                List<Json> items = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    items.add(tree(depth + 1, maxDepth));
                }
                yield Json.arr(items);
            }
        };
    }

    /**
     * A chain of containers: the returned value placed at depth 1 puts its innermost value at
     * depth {@code levels + 1}; with {@code levels = MAX_DEPTH - 1} that is exactly the limit.
     */
    Json deep(int levels) {
        Json inner = rnd.nextBoolean() ? Json.of(text()) : Json.Arr.EMPTY;
        for (int i = 0; i < levels; i++) {
            inner = rnd.nextBoolean() ? Json.arr(inner) : Json.obj(key(), inner);
        }
        return inner;
    }

    Json.Arr bigArray() {
        int n = 500 + rnd.nextInt(3000);
        List<Json> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(rnd.nextBoolean() ? Json.of(i) : Json.of("10.0." + (i / 256) + "." + (i % 256)));
        }
        return Json.arr(items);
    }

    Json integer() {
        return switch (rnd.nextInt(6)) {
            case 0 -> Json.of(Long.MIN_VALUE);
            case 1 -> Json.of(Long.MAX_VALUE);
            case 2 -> Json.of(rnd.nextLong());
            case 3 -> Json.of(-rnd.nextInt(1000));
            default -> Json.of(rnd.nextInt(70_000));
        };
    }

    Json decimal() {
        double d = switch (rnd.nextInt(8)) {
            case 0 -> -0.0;
            case 1 -> Double.MIN_VALUE;
            case 2 -> -Double.MAX_VALUE;
            case 3 -> 0.1;
            case 4 -> Double.longBitsToDouble(rnd.nextLong() & 0x000F_FFFF_FFFF_FFFFL); // subnormal
            case 5 -> 1.0;
            default -> {
                double v;
                do {
                    v = Double.longBitsToDouble(rnd.nextLong());
                } while (!Double.isFinite(v));
                yield v;
            }
        };
        return new Json.Dec(d);
    }

    /** Keys: pooled (repeats, dictionary hits), random ASCII, or random Unicode. */
    String key() {
        return switch (rnd.nextInt(4)) {
            case 0, 1 -> pick(KEY_POOL.toArray(String[]::new));
            case 2 -> "k" + rnd.nextInt(20);
            default -> unicode(1 + rnd.nextInt(12));
        };
    }

    /** Strings: empty, pooled, ASCII, Unicode, or longer than the 96-character repeat limit. */
    String text() {
        return switch (rnd.nextInt(7)) {
            case 0 -> "";
            case 1 -> pick(STRING_POOL.toArray(String[]::new));
            case 2 -> Long.toString(rnd.nextLong() >>> 1);
            case 3 -> unicode(1 + rnd.nextInt(30));
            case 4 -> "x".repeat(90 + rnd.nextInt(12)); // around the 96-character boundary
            case 5 -> unicode(97 + rnd.nextInt(300));
            default -> ascii(1 + rnd.nextInt(40));
        };
    }

    /**
     * A resourceVersion: {@link #text()} with every character an opaque token may not hold
     * (whitespace, controls, format and line separators: {@link Printable#requireToken}) made an
     * {@code x}, so that lengths and the mix of scripts stay those of {@link #text()}.
     */
    String resourceVersion() {
        StringBuilder b = new StringBuilder();
        text().codePoints().forEach(cp -> b.appendCodePoint(
                Printable.isPrintable(Character.toString(cp)) && !Character.isWhitespace(cp) && !Character.isSpaceChar(cp) ? cp : 'x'));
        return b.toString();
    }

    String nonEmpty() {
        String s = text();
        return s.isEmpty() ? "nftables" : s;
    }

    /** Valid Unicode: any code point except surrogates; supplementary characters included. */
    String unicode(int codePoints) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            int cp = switch (rnd.nextInt(5)) {
                case 0 -> rnd.nextInt(0x80);
                case 1 -> 0x80 + rnd.nextInt(0x800 - 0x80);
                case 2 -> 0x10000 + rnd.nextInt(0x110000 - 0x10000);
                default -> {
                    int c;
                    do {
                        c = 0x800 + rnd.nextInt(0x10000 - 0x800);
                    } while (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE);
                    yield c;
                }
            };
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    String ascii(int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append((char) (0x20 + rnd.nextInt(0x5F)));
        }
        return sb.toString();
    }

    /** A random DNS-1123 label. */
    String label() {
        int n = rnd.nextInt(10) == 0 ? 63 : 1 + rnd.nextInt(20);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            boolean edge = i == 0 || i == n - 1;
            int r = rnd.nextInt(edge ? 36 : 37);
            sb.append(r < 26 ? (char) ('a' + r) : r < 36 ? (char) ('0' + r - 26) : '-');
        }
        return sb.toString();
    }

    /** A random DNS-1123 subdomain of one to three labels. */
    String subdomain() {
        int parts = 1 + rnd.nextInt(3);
        StringBuilder sb = new StringBuilder(label());
        for (int i = 1; i < parts; i++) {
            sb.append('.').append(label());
        }
        return sb.length() > 253 ? sb.substring(0, 1) : sb.toString();
    }

    private Set<String> relistKeys() {
        int n = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(40);
        Set<String> keys = new HashSet<>();
        String ns = label();
        for (int i = 0; i < n; i++) {
            switch (rnd.nextInt(4)) {
                case 0 -> ns = label();
                case 1 -> keys.add(unicode(1 + rnd.nextInt(8)) + "/" + unicode(1 + rnd.nextInt(8)));
                default -> { }
            }
            keys.add(ns + "/" + subdomain());
        }
        return keys;
    }

    private long offset() {
        return switch (rnd.nextInt(3)) {
            case 0 -> -1;
            case 1 -> rnd.nextLong() >>> 1;
            default -> rnd.nextInt(100_000);
        };
    }

    private Duration duration() {
        return switch (rnd.nextInt(3)) {
            case 0 -> Duration.ZERO;
            case 1 -> Duration.ofSeconds(rnd.nextLong() >>> 1, rnd.nextInt(1_000_000_000));
            default -> Duration.ofNanos(rnd.nextInt(2_000_000_000));
        };
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[rnd.nextInt(values.length)];
    }
}

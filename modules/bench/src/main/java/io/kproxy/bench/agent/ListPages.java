package io.kproxy.bench.agent;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Paged lists as an API server answers them: a list with {@code limit} returns that many items
 * and a {@code continue} token; each later page, asked with the token, continues the same
 * snapshot at the first page's {@code resourceVersion} (kube-apiserver's etcd-backed list,
 * staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go {@code GetList}, reads every page at
 * the first page's revision). A token older than {@code maxAge}, or whose snapshot was dropped
 * to keep at most {@code maxOpen} open, is expired: the API server answers 410 Gone once etcd
 * has compacted past the revision (5 minutes by default), and the client lists again.
 *
 * <p>A snapshot holds references to the stored JSON strings, not copies, and a page writes only
 * its own items: at 100,000 EndpointSlices a page of 500 costs the mock about 0.6 MB of copying,
 * not a re-serialisation of the store. Thread-safe; never blocks.
 */
final class ListPages {

    /** One page: its body, and whether later pages remain. */
    record Page(byte[] body, boolean more) {
    }

    private record Snapshot(List<String> items, long resourceVersion, long openedNanos) {
    }

    private final Map<Long, Snapshot> open;
    private final AtomicLong ids = new AtomicLong();
    private final Duration maxAge;
    private final LongSupplier nanoClock;

    ListPages(int maxOpen, Duration maxAge, LongSupplier nanoClock) {
        if (maxOpen < 1 || maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("maxOpen must be positive and maxAge positive: " + maxOpen + ", " + maxAge);
        }
        this.maxAge = maxAge;
        this.nanoClock = nanoClock;
        this.open = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Snapshot> eldest) {
                return size() > maxOpen;
            }
        };
    }

    /** The first page of {@code items} (in the order served) at {@code resourceVersion}; {@code limit} ≤ 0 means all. */
    Page first(List<String> items, long resourceVersion, int limit) {
        Snapshot s = new Snapshot(List.copyOf(items), resourceVersion, nanoClock.getAsLong());
        return page(ids.incrementAndGet(), s, 0, limit);
    }

    /** The page a {@code continue} token names, or empty when the token is unknown or expired (410 Gone). */
    Optional<Page> next(String token, int limit) {
        long[] idAndOffset = decode(token);
        if (idAndOffset == null) {
            return Optional.empty();
        }
        Snapshot s;
        synchronized (open) {
            s = open.get(idAndOffset[0]);
            if (s != null && nanoClock.getAsLong() - s.openedNanos() > maxAge.toNanos()) {
                open.remove(idAndOffset[0]);
                s = null;
            }
        }
        if (s == null || idAndOffset[1] > s.items().size()) {
            return Optional.empty();
        }
        return Optional.of(page(idAndOffset[0], s, (int) idAndOffset[1], limit));
    }

    /** How many snapshots wait for their next page. */
    int openSnapshots() {
        synchronized (open) {
            return open.size();
        }
    }

    private Page page(long id, Snapshot s, int from, int limit) {
        int to = limit <= 0 ? s.items().size() : (int) Math.min(s.items().size(), (long) from + limit);
        boolean more = to < s.items().size();
        synchronized (open) {
            if (more) {
                open.put(id, s);
            } else {
                open.remove(id);
            }
        }
        return new Page(body(s.items().subList(from, to), s.resourceVersion(), more ? encode(id, to) : null), more);
    }

    /**
     * The mock's list shape (fabric8's {@code KubernetesResponseComposer}) with the
     * {@code continue} token in {@code metadata} when more pages remain, as an API server sends it.
     */
    static byte[] body(List<String> items, long resourceVersion, String continueToken) {
        int size = 128;
        for (String item : items) {
            size += item.length() + 1;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        out.writeBytes("{\"apiVersion\":\"v1\",\"kind\":\"List\", \"items\": [".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.writeBytes(items.get(i).getBytes(StandardCharsets.UTF_8));
        }
        String meta = "], \"metadata\": {\"resourceVersion\": \"" + resourceVersion + "\", \"selfLink\": \"\""
                + (continueToken == null ? "" : ", \"continue\": \"" + continueToken + "\"") + "}}";
        out.writeBytes(meta.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** Opaque to clients, as the API server's tokens are (theirs carry the revision and the next key). */
    static String encode(long id, int offset) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(("bench/" + id + "/" + offset).getBytes(StandardCharsets.UTF_8));
    }

    /** Snapshot id and offset, or null for a token this class did not write. */
    static long[] decode(String token) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split("/");
            if (parts.length != 3 || !parts[0].equals("bench")) {
                return null;
            }
            long id = Long.parseLong(parts[1]);
            long offset = Long.parseLong(parts[2]);
            return id > 0 && offset >= 0 ? new long[] {id, offset} : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

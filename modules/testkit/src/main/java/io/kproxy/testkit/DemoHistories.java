package io.kproxy.testkit;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A small recorded history in the shape of the sample {@code kproxy demo} replays, as the records
 * of a journal (append them at their times to get the journal the demo reads): an agent starts, {@code shop/checkout} (10.96.0.50:80, pods on 8080) rolls
 * one pod, {@code shop/cart} scales up and down, at {@link #BAD} an edit points checkout's
 * endpoints at 8081 where nothing listens, the API server is gone for five minutes and a relist
 * follows, and at {@link #FIX} the edit is reverted. The agent's own sync records are in it too,
 * as in a recorded journal (the demo must leave them out).
 */
public final class DemoHistories {

    public static final Instant START = Instant.parse("2026-11-22T03:00:00Z");
    public static final Instant BAD = START.plusSeconds(300);
    public static final Instant FIX = START.plusSeconds(720);
    public static final Instant END = START.plusSeconds(900);

    private DemoHistories() {
    }

    private static EndpointSliceFixture checkout(String rv, int port, String... ips) {
        EndpointSliceFixture s = EndpointSliceFixture.slice("shop", "checkout-1", "checkout").port("http", port, "TCP").resourceVersion(rv);
        for (String ip : ips) {
            s.endpoint(ip).node("node-a");
        }
        return s;
    }

    private static EndpointSliceFixture cart(String rv, int n) {
        EndpointSliceFixture s = EndpointSliceFixture.slice("shop", "cart-1", "cart").port("http", 9090, "TCP").resourceVersion(rv);
        for (int i = 0; i < n; i++) {
            s.endpoint("10.244.2." + (10 + i)).node("node-b");
        }
        return s;
    }

    /** The history's records in time order, offsets from 0. */
    public static List<Envelope> records() {
        Recorder r = new Recorder();
        r.at(START, "engine", new ConfigRecorded(new NodeName("node-a"), Json.obj("mode", Json.of("nftables"), "clusterCIDR",
                Json.of("10.244.0.0/16"))));
        r.at(START.plusMillis(150), "source/kube", NodeFixture.node("node-a").internalIP("192.168.0.2").observed());
        r.at(START.plusMillis(160), "source/kube", new SourceSynced(ResourceKind.NODE, "1"));
        r.at(START.plusMillis(300), "source/kube", ServiceFixture.service("shop", "checkout").clusterIP("10.96.0.50")
                .port("http", 80, "TCP").resourceVersion("10").observed());
        r.at(START.plusMillis(301), "source/kube", ServiceFixture.service("shop", "cart").clusterIP("10.96.0.51")
                .port("http", 80, "TCP").resourceVersion("11").observed());
        r.at(START.plusMillis(302), "source/kube", new SourceSynced(ResourceKind.SERVICE, "11"));
        r.at(START.plusMillis(350), "source/kube", checkout("12", 8080, "10.244.1.11", "10.244.1.12").observed());
        r.at(START.plusMillis(353), "source/kube", cart("13", 1).observed());
        r.at(START.plusMillis(356), "source/kube", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "13"));
        r.at(START.plusMillis(420), "engine", new SyncApplied("nftables", 1, 8, SyncKind.FULL, "h1", Duration.ofMillis(20)));
        int rv = 20;
        for (int s = 20; s < 900; s += 20) {
            Instant t = START.plusSeconds(s);
            if (t.isAfter(START.plusSeconds(420)) && t.isBefore(START.plusSeconds(720))) {
                continue; // the outage: nothing arrives
            }
            r.at(t, "source/kube", cart(Integer.toString(rv++), 1 + (s / 20) % 3).observed());
        }
        r.at(START.plusSeconds(180), "source/kube", checkout(Integer.toString(rv++), 8080, "10.244.1.11", "10.244.1.12", "10.244.1.13")
                .observed());
        r.at(START.plusSeconds(185), "source/kube", checkout(Integer.toString(rv++), 8080, "10.244.1.11", "10.244.1.13").observed());
        r.at(BAD, "source/kube", checkout(Integer.toString(rv++), 8081, "10.244.1.11", "10.244.1.13").observed());
        r.at(START.plusSeconds(720).minusMillis(1), "source/kube", new SourceRelisted(ResourceKind.SERVICE, Integer.toString(rv++),
                Set.of("shop/checkout", "shop/cart")));
        r.at(FIX, "source/kube", checkout(Integer.toString(rv++), 8080, "10.244.1.11", "10.244.1.13").observed());
        r.at(END, "source/kube", cart(Integer.toString(rv), 2).observed());
        return r.sorted();
    }

    /** Collects records, then numbers them in time order (records of one time in the order given). */
    private static final class Recorder {
        private record Item(Instant at, long seq, String source, ClusterEvent event) {
        }

        private final List<Item> items = new ArrayList<>();

        void at(Instant t, String source, ClusterEvent e) {
            items.add(new Item(t, items.size(), source, e));
        }

        List<Envelope> sorted() {
            items.sort(Comparator.comparing(Item::at).thenComparing(Item::seq));
            List<Envelope> out = new ArrayList<>(items.size());
            for (Item i : items) {
                out.add(new Envelope(out.size(), i.at(), i.source(), i.event()));
            }
            return List.copyOf(out);
        }
    }
}

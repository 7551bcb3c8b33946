package io.kproxy.app;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import io.kproxy.testkit.SettableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * Test-only: a small recorded history in the shape of the sample the demo replays, written as a
 * journal directory: an agent starts, {@code shop/checkout} (10.96.0.50:80, pods on 8080) rolls
 * one pod, {@code shop/cart} scales up and down, at {@link #BAD} an edit points checkout's
 * endpoints at 8081 where nothing listens, the API server is gone for five minutes and a relist
 * follows, and at {@link #FIX} the edit is reverted. The agent's own sync records are in it too,
 * as in a recorded journal (the demo must leave them out).
 */
final class DemoHistories {

    static final Instant START = Instant.parse("2026-11-22T03:00:00Z");
    static final Instant BAD = START.plusSeconds(300);
    static final Instant FIX = START.plusSeconds(720);
    static final Instant END = START.plusSeconds(900);

    private DemoHistories() {
    }

    static EndpointSliceFixture checkout(String rv, int port, String... ips) {
        EndpointSliceFixture s = EndpointSliceFixture.slice("shop", "checkout-1", "checkout").port("http", port, "TCP").resourceVersion(rv);
        for (String ip : ips) {
            s.endpoint(ip).node("node-a");
        }
        return s;
    }

    static EndpointSliceFixture cart(String rv, int n) {
        EndpointSliceFixture s = EndpointSliceFixture.slice("shop", "cart-1", "cart").port("http", 9090, "TCP").resourceVersion(rv);
        for (int i = 0; i < n; i++) {
            s.endpoint("10.244.2." + (10 + i)).node("node-b");
        }
        return s;
    }

    /** Writes the history into {@code dir} (new or empty). */
    static Path write(Path dir) {
        SettableClock clock = new SettableClock(START);
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir).withClock(clock))) {
            Recorder r = new Recorder(j, clock);
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
            r.flush();
        }
        return dir;
    }

    /** Appends in time order (records are collected, then written sorted by time). */
    private static final class Recorder {
        private record Item(Instant at, long seq, String source, ClusterEvent event) {
        }

        private final LocalJournal journal;
        private final SettableClock clock;
        private final java.util.List<Item> items = new java.util.ArrayList<>();

        Recorder(LocalJournal journal, SettableClock clock) {
            this.journal = journal;
            this.clock = clock;
        }

        void at(Instant t, String source, ClusterEvent e) {
            items.add(new Item(t, items.size(), source, e));
        }

        void flush() {
            items.sort(java.util.Comparator.comparing(Item::at).thenComparing(Item::seq));
            for (Item i : items) {
                clock.set(i.at());
                journal.append(i.source(), i.event()).join();
            }
        }
    }
}

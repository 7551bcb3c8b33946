package io.kproxy.history.damage;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.replay.StateLoader;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import io.kproxy.testkit.SettableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A small local journal for damage tests: 34 records (configuration, node, three Services, their
 * slices, barriers, then endpoint changes each followed by the sync that applied it), one record
 * a second, in segments of 1 KiB (about six records each), with snapshots at offsets
 * {@link #SNAPSHOT} and {@link #LATE_SNAPSHOT}. Plus the three ways of damaging a file at a byte position.
 */
final class SmallJournal {

    static final Instant START = Instant.parse("2026-03-01T00:00:00Z");
    static final long SNAPSHOT = 16;
    /** A second snapshot, inside the newest segment: the one a cut or damaged tail must never leave in use. */
    static final long LATE_SNAPSHOT = 33;
    static final String NODE = "node-a";

    /** How a file is damaged at a position. */
    enum Mutation { FLIP, TRUNCATE, ZERO }

    private SmallJournal() {
    }

    /** Writes the journal into {@code dir}; returns the time of each record, by offset. */
    static List<Instant> write(Path dir) {
        SettableClock clock = new SettableClock(START);
        List<Instant> times = new ArrayList<>();
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir).withSegmentBytes(1024).withFsyncWindow(Duration.ZERO)
                .withClock(clock))) {
            List<ClusterEvent> events = new ArrayList<>();
            events.add(new ConfigRecorded(new NodeName(NODE), Json.obj("mode", Json.of("nftables"), "clusterCIDR", Json.of("10.0.0.0/16"))));
            events.add(NodeFixture.node(NODE).internalIP("192.168.0.2").resourceVersion("7").observed());
            events.add(ServiceFixture.service("ns", "web").clusterIP("172.30.0.10").port("http", 80, "TCP").resourceVersion("10").observed());
            events.add(ServiceFixture.service("ns", "lb").type("LoadBalancer").clusterIP("172.30.0.11").port("http", 80, "TCP", 30080)
                    .loadBalancerIngress("198.51.100.5").externalTrafficPolicy("Local").healthCheckNodePort(32000).resourceVersion("11")
                    .observed());
            events.add(ServiceFixture.service("ns", "dns").clusterIP("172.30.0.12").port("dns", 53, "UDP").resourceVersion("12").observed());
            events.add(slice("web", "20", 1).observed());
            events.add(slice("lb", "21", 1).node(NODE).observed());
            events.add(slice("dns", "22", 2).observed());
            events.add(new SourceSynced(ResourceKind.SERVICE, "30"));
            events.add(new SourceSynced(ResourceKind.ENDPOINT_SLICE, "30"));
            long gen = 1;
            for (ClusterEvent e : events) {
                times.add(clock.instant());
                j.append("test", e).join();
                clock.set(clock.instant().plusSeconds(1));
            }
            times.add(clock.instant());
            j.append("test", sync(gen++, j.nextOffset() - 1)).join();
            clock.set(clock.instant().plusSeconds(1));
            for (int i = 0; i < 12; i++) {
                String svc = i % 3 == 0 ? "web" : i % 3 == 1 ? "lb" : "dns";
                times.add(clock.instant());
                j.append("test", slice(svc, Integer.toString(40 + i), 2 + i % 4).observed()).join();
                clock.set(clock.instant().plusSeconds(1));
                times.add(clock.instant());
                j.append("test", sync(gen++, j.nextOffset() - 1)).join();
                clock.set(clock.instant().plusSeconds(1));
                if (j.nextOffset() - 1 == SNAPSHOT || j.nextOffset() - 1 == LATE_SNAPSHOT) {
                    j.storeSnapshot(j.nextOffset() - 1, StateLoader.at(j, j.nextOffset() - 1).state().toSnapshot());
                }
            }
        }
        return List.copyOf(times);
    }

    private static EndpointSliceFixture slice(String svc, String rv, int endpoints) {
        EndpointSliceFixture s = EndpointSliceFixture.slice("ns", svc + "-1", svc).port("http", 8080, "TCP").resourceVersion(rv);
        for (int k = 0; k < endpoints; k++) {
            s.endpoint("10.0." + (svc.length()) + "." + (10 + k));
        }
        return s;
    }

    private static SyncApplied sync(long generation, long upto) {
        return new SyncApplied("nftables", generation, upto, SyncKind.FULL, "0123456789abcdef0123456789abcdef", Duration.ofMillis(2));
    }

    /** The segment files of {@code dir}, oldest first. */
    static List<Path> segments(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Damages {@code file} at {@code position}: one bit flipped, cut there, or zeros from there to the end. */
    static void damage(Path file, long position, Mutation m, int bit) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            switch (m) {
                case FLIP -> {
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
                    ch.read(b, position);
                    b.put(0, (byte) (b.get(0) ^ (1 << bit)));
                    b.rewind();
                    ch.write(b, position);
                }
                case TRUNCATE -> ch.truncate(position);
                case ZERO -> {
                    java.nio.ByteBuffer z = java.nio.ByteBuffer.allocate((int) (ch.size() - position));
                    ch.write(z, position);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The byte positions where a frame of segment {@code seg} ends (and the next would start), walking the length fields. */
    static java.util.Set<Long> frameEnds(Path seg) {
        try {
            byte[] b = Files.readAllBytes(seg);
            java.util.Set<Long> ends = new java.util.HashSet<>();
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
            int p = 20;
            ends.add((long) p);
            while (p + 8 <= b.length) {
                p += 8 + buf.getInt(p);
                ends.add((long) p);
            }
            return ends;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes {@code dir} and everything in it. */
    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

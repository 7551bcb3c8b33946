package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Skipped;
import io.kproxy.events.Envelope;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.SyncApplied;
import io.kproxy.model.IpAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a backend reports besides its transactions, on virtual time: the node's local addresses
 * the engine records ({@code LocalAddressesObserved}, with the engine's source, before the sync
 * that programs them, and only when they change), and the objects a sync newly skipped, counted
 * in {@code kproxy_sync_skipped_objects_total} once per decision.
 */
class BackendReportsTest {

    private final EngineHarness h = new EngineHarness();

    @AfterEach
    void tearDown() {
        h.close();
    }

    private static List<IpAddress> ips(String... s) {
        return Arrays.stream(s).map(IpAddress::parse).toList();
    }

    private List<Envelope> records() {
        return h.log.read(0, Integer.MAX_VALUE);
    }

    @Test
    void localAddressesAreRecordedBeforeTheSyncThatProgramsThemAndOnlyWhenTheyChange() {
        h.backend.localAddresses = Optional.of(ips("203.0.113.1", "192.168.0.2"));
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.advance(Duration.ofSeconds(1));
        List<Envelope> all = records();
        Envelope recorded = all.stream().filter(e -> e.event() instanceof LocalAddressesObserved).findFirst().orElseThrow();
        assertThat(recorded.source()).isEqualTo(EngineOptions.SOURCE);
        assertThat(((LocalAddressesObserved) recorded.event()).addresses()).containsExactlyElementsOf(ips("192.168.0.2", "203.0.113.1"));
        assertThat(h.events(SyncApplied.class)).singleElement().satisfies(s -> assertThat(s.uptoOffset())
                .as("the first sync reflects the record").isGreaterThanOrEqualTo(recorded.offset()));
        assertThat(all.indexOf(recorded)).isLessThan(all.indexOf(all.stream().filter(e -> e.event() instanceof SyncApplied).findFirst()
                .orElseThrow()));
        assertThat(h.engine.state().node().node().localAddresses()).containsExactlyElementsOf(ips("192.168.0.2", "203.0.113.1"));

        h.append(slice("a", "10.0.1.7").resourceVersion("2").observed());
        h.advance(Duration.ofSeconds(1));
        assertThat(h.events(SyncApplied.class)).hasSize(2);
        assertThat(h.events(LocalAddressesObserved.class)).as("unchanged: not recorded again").hasSize(1);

        h.backend.localAddresses = Optional.of(ips("192.168.0.2"));
        h.append(slice("a", "10.0.1.8").resourceVersion("3").observed());
        h.advance(Duration.ofSeconds(1));
        assertThat(h.events(LocalAddressesObserved.class)).hasSize(2);
        LocalAddressesObserved second = h.events(LocalAddressesObserved.class).getLast();
        assertThat(second.addresses()).containsExactlyElementsOf(ips("192.168.0.2"));
        long at = records().stream().filter(e -> e.event().equals(second)).findFirst().orElseThrow().offset();
        assertThat(h.events(SyncApplied.class).getLast().uptoOffset()).isGreaterThanOrEqualTo(at);
    }

    @Test
    void aBackendWithoutLocalAddressesRecordsNoneAndSkipsAreCountedOnce() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.advance(Duration.ofSeconds(1));
        assertThat(h.events(LocalAddressesObserved.class)).isEmpty();
        assertThat(skipped(Skipped.Cause.ADDRESS_COLLISION)).as("registered at 0").isZero();

        h.backend.skipNext = List.of(new Skipped(Skipped.Cause.ADDRESS_COLLISION, "ns/a:p/TCP IPV4", "cluster IP 192.168.0.2 is a node address"));
        h.append(slice("a", "10.0.1.7").resourceVersion("2").observed());
        h.advance(Duration.ofSeconds(1));
        assertThat(skipped(Skipped.Cause.ADDRESS_COLLISION)).isEqualTo(1.0);
        h.append(slice("a", "10.0.1.8").resourceVersion("3").observed());
        h.advance(Duration.ofSeconds(1));
        assertThat(h.events(SyncApplied.class)).hasSize(3);
        assertThat(skipped(Skipped.Cause.ADDRESS_COLLISION)).as("the backend reports a decision once").isEqualTo(1.0);
        assertThat(skipped(Skipped.Cause.MISSING_SCHEDULER)).isZero();
    }

    private double skipped(Skipped.Cause cause) {
        return h.registry.get("kproxy_sync_skipped_objects_total").tag("cause", cause.label()).counter().count();
    }
}

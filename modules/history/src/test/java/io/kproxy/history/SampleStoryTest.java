package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.Endpoint;
import io.kproxy.state.FoldedState;
import io.kproxy.state.ServicePortState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The committed sample holds what events/samples/README.md says it holds: a cluster of a few
 * hundred Services of every kind, the bad edit of shop/checkout on the demo topology's pods, the
 * outage's relist that drops a deleted Service and a replaced slice, the hourly full sync, and
 * the README's table of moments, row by row.
 */
class SampleStoryTest {

    private static final ServiceRef CHECKOUT = new ServiceRef("shop", "checkout");

    @Test
    void aFewHundredServicesOfEveryKind() {
        try (History h = History.open(Samples.CLUSTER_HOUR)) {
            FoldedState s = h.state(h.range().lastOffset());
            assertThat(s.cluster().services()).hasSizeBetween(280, 320);
            List<ServicePortState> v4 = List.copyOf(s.node().family(IpFamily.IPV4).ports().values());
            assertThat(v4.stream().filter(p -> p.nodePort() != 0).count()).isGreaterThan(30);
            assertThat(v4.stream().filter(p -> !p.loadBalancerIPs().isEmpty()).count()).isGreaterThan(10);
            assertThat(v4.stream().filter(p -> p.externalPolicyLocal() && p.healthCheckNodePort() != 0).count()).isGreaterThan(3);
            assertThat(v4.stream().filter(p -> p.affinityTimeoutSeconds() > 0).count()).isGreaterThan(5);
            assertThat(v4.stream().filter(p -> p.name().protocol() == Protocol.UDP).count()).isGreaterThanOrEqualTo(2);
            assertThat(s.node().family(IpFamily.IPV6).ports().size()).isGreaterThan(30);
            assertThat(s.cluster().services().stream().filter(r -> s.cluster().serviceSkipReason(r).isPresent()).count()).isGreaterThan(3);
            assertThat(s.node().node().name()).isEqualTo("demo-node");
            assertThat(s.node().node().primaryIPs()).extracting(Object::toString).containsExactly("192.168.0.2", "fd00:192::2");
        }
    }

    @Test
    void checkoutPointsAtPort8081OfTheDemoPodsFromTheBadEditToTheFix() {
        try (History h = History.open(Samples.CLUSTER_HOUR)) {
            assertThat(endpoints(h.state(852))).containsExactly("10.0.1.11:8080", "10.0.1.12:8080", "[fd00:10:0:1::11]:8080",
                    "[fd00:10:0:1::12]:8080");
            assertThat(endpoints(h.state(858))).containsExactly("10.0.1.11:8081", "10.0.1.12:8081", "[fd00:10:0:1::11]:8081",
                    "[fd00:10:0:1::12]:8081");
            assertThat(endpoints(h.state(1381))).containsExactly("10.0.1.11:8080", "10.0.1.12:8080", "[fd00:10:0:1::11]:8080",
                    "[fd00:10:0:1::12]:8080");
            ServicePortState p = h.state(858).node().family(IpFamily.IPV4).ports().values().stream()
                    .filter(x -> x.name().service().equals(CHECKOUT)).findFirst().orElseThrow();
            assertThat(p.endpoints()).allMatch(e -> e.nodeName().equals("demo-node") && e.local() && e.ready());
            assertThat(p.clusterIP()).hasToString("172.30.0.20");
            assertThat(p.nodePort()).isEqualTo(30080);
        }
    }

    @Test
    void theRelistDropsWhatVanishedDuringTheOutageAndTheHourlyFullSyncHappens() {
        List<Envelope> records = Samples.records(Samples.CLUSTER_HOUR);
        assertThat(records.stream().filter(e -> e.event() instanceof SourceRelisted)).hasSize(2);
        assertThat(records.stream().filter(e -> e.event() instanceof SyncApplied s && s.kind() == SyncKind.FULL)).hasSize(2);
        try (History h = History.open(Samples.CLUSTER_HOUR)) {
            ServiceRef old = new ServiceRef("legacy", "old-api");
            assertThat(h.state(1122).cluster().serviceOrigin(old)).isPresent();
            assertThat(h.state(1123).cluster().serviceOrigin(old)).isEmpty();
            ServiceRef export = new ServiceRef("team-c", "export");
            assertThat(h.state(1139).cluster().sliceOrigins(export)).hasSize(2);
            assertThat(h.state(1140).cluster().sliceOrigins(export)).hasSize(1);
        }
    }

    @Test
    void theReadmeTableOfMomentsMatchesTheJournal() throws IOException {
        String readme = Files.readString(Path.of("../../events/samples/README.md"));
        Pattern row = Pattern.compile("^\\| (\\S+Z) \\| #(\\d+) \\| (\\w+) \\| ([^|]+) \\|", Pattern.MULTILINE);
        Matcher m = row.matcher(readme);
        int rows = 0;
        try (History h = History.open(Samples.CLUSTER_HOUR)) {
            while (m.find()) {
                Envelope e = h.record(Long.parseLong(m.group(2)));
                assertThat(Describe.time(e.recordedAt())).as("time of #%s", m.group(2)).isEqualTo(m.group(1));
                assertThat(Describe.type(e.event())).as("event of #%s", m.group(2)).isEqualTo(m.group(3));
                assertThat(Describe.object(e.event())).as("object of #%s", m.group(2)).isEqualTo(m.group(4).strip());
                rows++;
            }
        }
        assertThat(rows).as("rows in the README's table").isGreaterThanOrEqualTo(15);
    }

    private static List<String> endpoints(FoldedState s) {
        TreeSet<String> v4 = new TreeSet<>();
        TreeSet<String> v6 = new TreeSet<>();
        for (IpFamily f : IpFamily.values()) {
            for (ServicePortState p : s.node().family(f).ports().values()) {
                if (p.name().service().equals(CHECKOUT)) {
                    p.endpoints().stream().map(Endpoint::hostPort).forEach(f == IpFamily.IPV4 ? v4::add : v6::add);
                }
            }
        }
        return java.util.stream.Stream.concat(v4.stream(), v6.stream()).toList();
    }
}

package io.kproxy.app;

import static io.kproxy.testkit.EndpointSliceFixture.slice;
import static io.kproxy.testkit.NodeFixture.node;
import static io.kproxy.testkit.ServiceFixture.service;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.journal.kafka.Topics;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.kafka.testkit.KafkaBroker;
import io.kproxy.testkit.SettableClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Fleet time travel: {@code kproxy render --kafka-bootstrap-servers … --node NAME --at TIME}
 * answers for any node from the topic alone (a node that was deleted too), and refuses a topic of
 * another cluster with exit 5. Against Apache Kafka's broker (kafka-testkit).
 */
class FleetRenderIT {

    private static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");
    private static KafkaBroker broker;

    @BeforeAll
    static void start() {
        broker = KafkaBroker.start();
        SettableClock clock = new SettableClock(T0);
        KafkaLogOptions o = KafkaLogOptions.of(broker.bootstrapServers(), "fleet", "c1").withClock(clock);
        Topics.create(o, (short) 1, Duration.ofDays(7).toMillis());
        try (KafkaEventLog log = KafkaEventLog.open(o)) {
            append(log, node("gone-node").internalIP("192.168.0.9").observed(),
                    service("demo", "web").clusterIP("172.30.0.10").port("http", 80, "TCP").observed(),
                    slice("demo", "web-1", "web").resourceVersion("1").port("http", 8080, "TCP").endpoint("10.0.1.11").node("gone-node")
                            .ready(true).endpoint("10.0.1.12").node("other").ready(true).observed(),
                    new SourceSynced(ResourceKind.SERVICE, "1"), new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"),
                    new SourceSynced(ResourceKind.NODE, "1"));
            clock.set(T0.plusSeconds(3600));
            append(log, slice("demo", "web-1", "web").resourceVersion("2").port("http", 8080, "TCP").endpoint("10.0.1.12").node("other")
                    .ready(true).observed(), new io.kproxy.events.NodeDeleted(new io.kproxy.model.NodeName("gone-node"), "3", false));
        }
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static void append(EventLog log, ClusterEvent... events) {
        List<EventLog.Draft> drafts = new ArrayList<>();
        for (ClusterEvent e : events) {
            drafts.add(new EventLog.Draft("source/kube", e));
        }
        log.append(drafts).join();
    }

    private record Run(int code, String out, String err) {
    }

    private static Run render(String cluster, String at) {
        return kproxy("render", "--kafka-bootstrap-servers", broker.bootstrapServers(), "--topic", "fleet", "--cluster", cluster,
                "--node", "gone-node", "--at", at);
    }

    private static Run kproxy(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new KproxyCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void aNodeThatNoLongerExistsIsAnsweredForAnyTimeFromTheTopic() {
        Run before = render("c1", T0.plusSeconds(60).toString());
        assertThat(before.code()).as(before.err()).isZero();
        assertThat(before.out()).contains("demo/web/tcp/http").contains("10.0.1.11").contains("10.0.1.12");
        Run after = render("c1", T0.plusSeconds(7200).toString());
        assertThat(after.code()).as(after.err()).isZero();
        assertThat(after.out()).contains("10.0.1.12").doesNotContain("10.0.1.11");
    }

    @Test
    void diffAndAuditAnswerFromTheTopicToo() {
        Run diff = kproxy("diff", "--kafka-bootstrap-servers", broker.bootstrapServers(), "--topic", "fleet", "--cluster", "c1",
                "--node", "gone-node", "--from", T0.plusSeconds(60).toString(), "--to", T0.plusSeconds(7200).toString());
        assertThat(diff.code()).as(diff.err()).isZero();
        assertThat(diff.out()).contains("demo/web").contains("10.0.1.11");
        Run audit = kproxy("audit", "--kafka-bootstrap-servers", broker.bootstrapServers(), "--topic", "fleet", "--cluster", "c1",
                "--node", "gone-node", "demo/web");
        assertThat(audit.code()).as(audit.err()).isZero();
        assertThat(audit.out()).contains("web-1");
        Run both = kproxy("audit", "--kafka-bootstrap-servers", broker.bootstrapServers(), "--topic", "fleet", "--cluster", "c1",
                "--journal", "/nonexistent", "--node", "gone-node", "demo/web");
        assertThat(both.code()).isEqualTo(2);
    }

    @Test
    void aTopicOfAnotherClusterIsRefused() {
        Run r = render("c2", T0.plusSeconds(60).toString());
        assertThat(r.code()).isEqualTo(5);
        assertThat(r.err()).contains("FOREIGN_CLUSTER");
    }
}

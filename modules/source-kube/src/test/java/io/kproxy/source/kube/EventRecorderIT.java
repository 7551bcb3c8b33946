package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.kproxy.model.NodeName;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Events reach fabric8's CRUD mock API server with upstream kube-proxy's fields, through
 * events.k8s.io/v1 or, where it is not served, core/v1; repeats fold into a series; a reason's
 * burst is bounded; an unreachable API server costs one log line, never the caller's time.
 */
class EventRecorderIT {

    private static final String NODE = "node-a";
    private static final Duration WAIT = Duration.ofSeconds(10);

    private KubernetesMockServer server;
    private KubernetesClient client;
    private EventRecorder recorder;

    @BeforeEach
    void setUp() {
        // CRUD with expectations first (the test of a server without events.k8s.io/v1), over plain HTTP
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations, new KubernetesMixedDispatcher(expectations), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        client = server.createClient();
    }

    @AfterEach
    void tearDown() {
        if (recorder != null) {
            recorder.close();
        }
        client.close();
        server.destroy();
    }

    private static EventRecorderOptions options() {
        return EventRecorderOptions.defaults("host-1").withSeries(Duration.ofMinutes(6), Duration.ofMillis(100))
                .withRetries(1, Duration.ofMillis(10));
    }

    private EventRecorder recorder(EventRecorderOptions options) {
        recorder = EventRecorder.toApiServer(KubeSourceOptions.defaults(new NodeName(NODE)).withMasterUrl(client.getMasterUrl().toString()),
                options);
        return recorder;
    }

    private List<Event> v1Events(String namespace) {
        return client.events().v1().events().inNamespace(namespace).list().getItems();
    }

    @Test
    void theStartingEventCarriesUpstreamsFields() {
        recorder(options()).record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node(NODE)));

        await().atMost(WAIT).until(() -> v1Events("default").size() == 1);
        Event e = v1Events("default").getFirst();
        assertThat(e.getType()).isEqualTo("Normal");
        assertThat(e.getReason()).isEqualTo("Starting");
        assertThat(e.getAction()).isEqualTo("StartKubeProxy");
        assertThat(e.getNote()).isEmpty();
        assertThat(e.getReportingController()).isEqualTo("kube-proxy");
        assertThat(e.getReportingInstance()).isEqualTo("kube-proxy-host-1");
        assertThat(e.getRegarding().getKind()).isEqualTo("Node");
        assertThat(e.getRegarding().getName()).isEqualTo(NODE);
        assertThat(e.getRegarding().getUid()).isEqualTo(NODE);
        assertThat(e.getRegarding().getApiVersion()).isNull();
        assertThat(e.getRegarding().getNamespace()).isNull();
        assertThat(e.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(e.getMetadata().getName()).matches(NODE + "\\.[0-9a-f]+");
        assertThat(e.getEventTime().getTime()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
        assertThat(e.getSeries()).isNull();
        assertThat(e.getRelated()).isNull();
    }

    @Test
    void aServiceWarningGoesToTheServicesNamespaceAndRepeatsBecomeItsSeries() {
        EventRecorder r = recorder(options());
        ApiEvent warning = ApiEvent.warning("FailedToStartServiceHealthcheck", "Listen",
                "node node-a failed to start healthcheck \"ns1/web\" on port 30000: Address already in use", ObjectRef.service("ns1", "web"));
        for (int i = 0; i < 5; i++) {
            r.record(warning);
        }

        await().atMost(WAIT).until(() -> {
            List<Event> es = v1Events("ns1");
            return es.size() == 1 && es.getFirst().getSeries() != null && es.getFirst().getSeries().getCount() == 5;
        });
        Event e = v1Events("ns1").getFirst();
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getRegarding().getKind()).isEqualTo("Service");
        assertThat(e.getRegarding().getNamespace()).isEqualTo("ns1");
        assertThat(e.getRegarding().getUid()).isEqualTo("ns1/web");
        assertThat(e.getSeries().getLastObservedTime()).isNotNull();
    }

    @Test
    void aReasonsBurstIsBoundedAndTheRefusalIsLoggedOnce() {
        try (LogCapture logs = new LogCapture()) {
            EventRecorder r = recorder(options().withRateLimit(2, Duration.ofHours(1)));
            for (int i = 0; i < 6; i++) {
                r.record(ApiEvent.warning("FailedToStartServiceHealthcheck", "Listen", "taken", ObjectRef.service("ns1", "s" + i)));
            }
            r.record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node(NODE)));
            await().atMost(WAIT).until(() -> v1Events("default").size() == 1);
            r.close();
            assertThat(v1Events("ns1")).hasSize(2);
            assertThat(logs.warnings("cause=rate-limited")).singleElement().asString().contains("reason=FailedToStartServiceHealthcheck");
        }
    }

    @Test
    void withoutEventsV1TheCoreApiGetsTheEvents() {
        server.expect().post().withPath("/apis/events.k8s.io/v1/namespaces/default/events")
                .andReturn(404, new StatusBuilder().withStatus("Failure").withReason("NotFound").withCode(404)
                        .withMessage("the server could not find the requested resource").build())
                .always();
        EventRecorder r = recorder(options());
        r.record(ApiEvent.warning("readOnlySysFS", "StartKubeProxy", "CRI error: /sys is read-only", ObjectRef.node(NODE)));
        r.record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node(NODE)));
        r.record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node(NODE)));

        await().atMost(WAIT).until(() -> client.v1().events().inNamespace("default").list().getItems().stream()
                .anyMatch(e -> e.getReason().equals("Starting") && Integer.valueOf(2).equals(e.getCount())));
        List<io.fabric8.kubernetes.api.model.Event> core = client.v1().events().inNamespace("default").list().getItems();
        assertThat(core).hasSize(2);
        io.fabric8.kubernetes.api.model.Event ro = core.stream().filter(e -> e.getReason().equals("readOnlySysFS")).findFirst().orElseThrow();
        assertThat(ro.getType()).isEqualTo("Warning");
        assertThat(ro.getMessage()).isEqualTo("CRI error: /sys is read-only");
        assertThat(ro.getInvolvedObject().getKind()).isEqualTo("Node");
        assertThat(ro.getInvolvedObject().getName()).isEqualTo(NODE);
        assertThat(ro.getInvolvedObject().getUid()).isEqualTo(NODE);
        assertThat(ro.getSource().getComponent()).isEqualTo("kube-proxy");
        assertThat(ro.getSource().getHost()).isEqualTo(NODE);
        assertThat(ro.getReportingComponent()).isEqualTo("kube-proxy");
        assertThat(ro.getReportingInstance()).isEqualTo("kube-proxy-host-1");
        assertThat(ro.getAction()).isEqualTo("StartKubeProxy");
        assertThat(ro.getCount()).isEqualTo(1);
        assertThat(ro.getFirstTimestamp()).isNotNull().isEqualTo(ro.getLastTimestamp());
    }

    @Test
    void anUnreachableApiServerCostsOneLogLineAndNoTime() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (LogCapture logs = new LogCapture()) {
            recorder = EventRecorder.toApiServer(KubeSourceOptions.defaults(new NodeName(NODE)).withMasterUrl("http://127.0.0.1:" + closedPort),
                    options().withRetries(2, Duration.ofMillis(50)));
            long t0 = System.nanoTime();
            recorder.record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node(NODE)));
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(100));

            await().atMost(WAIT).until(() -> !logs.warnings("decision=event-dropped").isEmpty());
            recorder.close();
            assertThat(logs.warnings("decision=event-dropped")).singleElement().asString()
                    .contains("cause=api-failure", "reason=Starting", "regarding=Node/node-a", "attempts=2", "dropped_total=1");
        }
    }
}

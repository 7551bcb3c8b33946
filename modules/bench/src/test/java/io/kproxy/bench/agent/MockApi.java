package io.kproxy.bench.agent;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.HashMap;

/** fabric8's mock API server with {@code dispatcher} on a free loopback port, and a client of it (JDK HTTP client); close after. */
final class MockApi implements AutoCloseable {

    private final KubernetesMockServer server;
    final KubernetesClient client;

    MockApi(KubernetesCrudDispatcher dispatcher) {
        MockWebServer web = new MockWebServer();
        server = new KubernetesMockServer(web, new HashMap<>(), false);
        web.setDispatcher(dispatcher);
        server.start(InetAddress.getLoopbackAddress(), 0);
        Config config = Config.empty();
        config.setMasterUrl("http://127.0.0.1:" + server.getPort());
        // Bounded, and retried: a request the mock server never answers (a CI run once waited 11
        // minutes on one) fails or succeeds on a retry instead of holding the build.
        config.setRequestTimeout(20_000);
        config.setRequestRetryBackoffLimit(3);
        client = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
    }

    /**
     * Closes the client, then the server. The mock server's shutdown waits 10 s for its open
     * connections; a watch's WebSocket that the JDK client is still closing can outlast that (seen
     * once in CI, after every assertion of the test had passed). That teardown race of the mock
     * library is reported on standard error, not as the test's failure: the port and the
     * server's threads belong to this test JVM, which ends with the run.
     */
    @Override
    public void close() {
        client.close();
        try {
            server.shutdown();
        } catch (IllegalStateException e) {
            System.err.println("MockApi: the mock server did not close within its shutdown wait: " + e);
        }
    }
}

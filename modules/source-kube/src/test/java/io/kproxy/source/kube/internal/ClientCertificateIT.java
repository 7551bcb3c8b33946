package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ServiceListBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kproxy.model.NodeName;
import io.kproxy.source.kube.KubeSourceOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A kubeconfig's client certificate and key, as files or as {@code -data}, in the key formats
 * kubeadm and openssl write (EC SEC1 and PKCS#8, RSA PKCS#1 and PKCS#8): the client the factory
 * builds from them completes a TLS request to a mock API server over https.
 */
class ClientCertificateIT {

    private static final Path TLS = Path.of("src/test/resources/tls");

    private KubernetesMockServer server;

    @BeforeEach
    void setUp() {
        server = new KubernetesMockServer(true);
        server.init(InetAddress.getLoopbackAddress(), 0);
        server.expect().get().withPath("/api/v1/namespaces/default/services").andReturn(200, new ServiceListBuilder().build()).always();
    }

    @AfterEach
    void tearDown() {
        server.destroy();
    }

    @ParameterizedTest
    @CsvSource({"ec-client.crt, ec-client.key", "ec-client.crt, ec-client-sec1.key",
        "rsa-client.crt, rsa-client.key", "rsa-client.crt, rsa-client-pkcs1.key"})
    void aClientCertificateAndKeyConnect(String cert, String key) throws IOException {
        String url = "https://127.0.0.1:" + server.getPort();
        ClientSettings files = new ClientSettings("test", url, "", "", true, "", TLS.resolve(cert).toString(), "",
                TLS.resolve(key).toString(), "", "", "", Optional.empty());
        ClientSettings data = new ClientSettings("test", url, "", "", true, "", "", b64(cert), "", b64(key), "", "",
                Optional.empty());
        for (ClientSettings s : new ClientSettings[] {files, data}) {
            assertThat(s.authentication()).startsWith("client-certificate");
            Reachability r = new Reachability(url, s.authentication(), "", System::nanoTime);
            RequestObserver observer = new RequestObserver(new SourceStats(java.time.Clock.systemUTC()), r, Optional.empty(),
                    new WatchLiveness(Duration.ofMinutes(5), System::nanoTime, () -> 0.0));
            try (KubernetesClient c = ClientFactory.create(s, KubeSourceOptions.defaults(new NodeName("n")), observer)) {
                assertThat(c.services().inNamespace("default").list().getItems()).isEmpty();
            }
        }
    }

    private static String b64(String file) throws IOException {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(TLS.resolve(file)));
    }
}

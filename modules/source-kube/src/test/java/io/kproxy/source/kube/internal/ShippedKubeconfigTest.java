package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kproxy.source.kube.ClientConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubeconfig deploy/configmap.yaml ships: refused until its server is filled in, then kubeadm's token-file form. */
class ShippedKubeconfigTest {

    private static final Path CONFIGMAP = Path.of("../../deploy/configmap.yaml");
    private static final String SA = "/var/run/secrets/kubernetes.io/serviceaccount";

    @TempDir
    Path dir;

    private String shipped() throws IOException {
        return new ObjectMapper(new YAMLFactory()).readTree(CONFIGMAP.toFile()).path("data").path("kubeconfig.conf").asText();
    }

    @Test
    void thePlaceholderIsRefusedNamingTheOneFieldToFillIn() throws IOException {
        Files.writeString(dir.resolve("token"), "projected\n");
        Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\n");
        Path f = dir.resolve("kubeconfig.conf");
        Files.writeString(f, shipped().replace(SA, dir.toString()));
        assertThatThrownBy(() -> Kubeconfig.resolve(f, "")).isInstanceOf(ClientConfigException.class)
                .extracting(e -> ((ClientConfigException) e).field()).isEqualTo("clusters[default].cluster.server");
    }

    @Test
    void filledInItUsesTheServiceAccountsTokenFileAndCa() throws IOException {
        Files.writeString(dir.resolve("token"), "projected\n");
        Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\n");
        Path f = dir.resolve("kubeconfig.conf");
        Files.writeString(f, shipped().replace("<control-plane-address>", "192.168.0.10").replace(SA, dir.toString()));
        ClientSettings s = Kubeconfig.resolve(f, "");
        assertThat(s.server()).isEqualTo("https://192.168.0.10:6443");
        assertThat(s.caFile()).isEqualTo(dir.resolve("ca.crt").toString());
        assertThat(s.authentication()).isEqualTo("tokenFile " + dir.resolve("token"));
        assertThat(s.token().get().getToken()).isEqualTo("projected");
    }
}

package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.source.kube.ClientConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InClusterTest {

    @TempDir
    Path dir;

    @Test
    void readsTheServiceAddressAndTheRotatingTokenLikeClientGo() throws IOException {
        Files.writeString(dir.resolve("token"), "projected-token\n");
        Files.writeString(dir.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\n");
        ClientSettings s = InCluster.resolve(Map.of("KUBERNETES_SERVICE_HOST", "fd00::1", "KUBERNETES_SERVICE_PORT", "443"), dir);
        assertThat(s.server()).isEqualTo("https://[fd00::1]:443");
        assertThat(s.caFile()).isEqualTo(dir.resolve("ca.crt").toString());
        assertThat(s.token().get()).isInstanceOf(FileToken.class);
        assertThat(s.token().get().getToken()).isEqualTo("projected-token");
    }

    @Test
    void outsideAPodOrWithoutTheTokenItSaysWhat() {
        assertThatThrownBy(() -> InCluster.resolve(Map.of(), dir)).isInstanceOf(ClientConfigException.class)
                .hasMessageContaining("KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT: not set");
        assertThatThrownBy(() -> InCluster.resolve(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443"), dir))
                .hasMessageContaining("service account token: cannot read token file " + dir.resolve("token") + ": no such file");
    }
}

package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.Random;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class ApiFailureTest {

    @Test
    void classifiesWhatTheJdkAndFabric8Throw() {
        ConnectException refused = new ConnectException();
        refused.initCause(new ClosedChannelException());
        assertThat(ApiFailure.of(new CompletionException(refused)).reason()).isEqualTo("connect-refused");
        assertThat(ApiFailure.of(new KubernetesClientException("x", new HttpConnectTimeoutException("HTTP connect timed out"))).reason())
                .isEqualTo("connect-timeout");
        assertThat(ApiFailure.of(new UnknownHostException("api.example")).detail()).isEqualTo("cannot resolve api.example");
        assertThat(ApiFailure.of(new SSLHandshakeException("PKIX path building failed")).reason()).isEqualTo("tls");
        ApiFailure forbidden = ApiFailure.of(new KubernetesClientException(new StatusBuilder().withCode(403)
                .withMessage("services is forbidden: User \"system:anonymous\" cannot list resource \"services\"").build()));
        assertThat(forbidden.reason()).isEqualTo("http-403");
        assertThat(forbidden.detail()).contains("system:anonymous");
        assertThat(ApiFailure.of(new CredentialException("exec plugin /x exited with status 3")).reason()).isEqualTo("credentials");
    }

    /** Seeded: whatever an exception says around a token, the detail never carries it. */
    @Test
    void theDetailNeverCarriesAnAuthorizationValue() {
        long seed = Long.getLong("kproxy.fuzz.seed", System.nanoTime());
        Random r = new Random(seed);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/=";
        for (int i = 0; i < 500; i++) {
            StringBuilder token = new StringBuilder();
            for (int n = 8 + r.nextInt(60); n > 0; n--) {
                token.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
            String scheme = r.nextBoolean() ? "Bearer" : "bearer";
            String message = switch (r.nextInt(3)) {
                case 0 -> "invalid header value: \"" + scheme + " " + token + "\n\"";
                case 1 -> "Authorization: " + scheme + " " + token + " rejected";
                default -> "header " + scheme + "\t" + token + ", retry";
            };
            ApiFailure f = ApiFailure.of(new KubernetesClientException("request failed", new IllegalArgumentException(message)));
            assertThat(f.detail()).as("seed=%d case=%d", seed, i).doesNotContain(token).doesNotContain("\n");
            assertThat(Redactor.scrub(message)).as("seed=%d case=%d", seed, i).doesNotContain(token);
        }
    }
}

package io.kproxy.source.kube.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kproxy.source.kube.ClientConfigException;
import io.kproxy.source.kube.KubeSourceOptions;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Builds the fabric8 client the source uses: JDK HTTP client, unlimited watch reconnects, and a
 * serialization of its own in which Services, EndpointSlices and Nodes decode to the source's
 * {@link RawObject} classes, so that watch events (which fabric8 decodes by {@code apiVersion}
 * and {@code kind}, not by the informer's class) skip the typed model as lists do.
 *
 * <p>Where the API server is and which credentials to send are resolved here, not by fabric8's
 * own kubeconfig reader (which ignores {@code tokenFile} and falls back to anonymous requests):
 * upstream kube-proxy's order ({@code cmd/kube-proxy/app/server.go} {@code createClient}) is a
 * kubeconfig file if given (its server replaced by {@code --master} if given), else
 * {@code --master} alone with no credentials, else the in-cluster service account. fabric8's
 * header logging (TRACE) is removed from the client: it prints the Authorization header.
 */
public final class ClientFactory {

    private ClientFactory() {
    }

    /**
     * The server and credentials {@code options} name. Reads the kubeconfig and the files it
     * names (blocking); runs no exec plugin.
     *
     * @throws ClientConfigException naming the field and the reason
     */
    public static ClientSettings settings(KubeSourceOptions options) {
        if (!options.kubeconfig().isEmpty()) {
            return Kubeconfig.resolve(Path.of(options.kubeconfig()), options.masterUrl());
        }
        if (!options.masterUrl().isEmpty()) {
            // upstream: --master without a kubeconfig talks to that URL with no credentials
            return ClientSettings.anonymous("--master", MasterUrl.check(options.masterUrl(), "flags", "--master"));
        }
        return InCluster.resolve();
    }

    /** A client for {@code settings} and {@code options}, with {@code observer} on every request. */
    public static KubernetesClient create(ClientSettings settings, KubeSourceOptions options, RequestObserver observer) {
        return build(settings, options, observer, Config.empty());
    }

    /**
     * As {@link #create(ClientSettings, KubeSourceOptions, RequestObserver)}, with fabric8's own
     * retries of a failed request limited to {@code requestRetries} (the Event recorder retries
     * itself, a bounded number of times).
     */
    public static KubernetesClient create(ClientSettings settings, KubeSourceOptions options, RequestObserver observer,
                                          int requestRetries) {
        return build(settings, options, observer, retrying(requestRetries));
    }

    /**
     * As {@link #create(ClientSettings, KubeSourceOptions, RequestObserver, int)}, each request
     * also bounded by {@code requestTimeout} (the Lease election's: upstream's
     * {@code resourcelock.NewFromKubeconfig} gives its client the renew deadline as the timeout, so
     * a hung renewal cannot outlast the deadline by more than one request).
     */
    public static KubernetesClient create(ClientSettings settings, KubeSourceOptions options, RequestObserver observer,
                                          int requestRetries, Duration requestTimeout) {
        Config config = retrying(requestRetries);
        config.setRequestTimeout(Math.toIntExact(requestTimeout.toMillis()));
        return build(settings, options, observer, config);
    }

    private static Config retrying(int requestRetries) {
        Config config = Config.empty();
        config.setRequestRetryBackoffLimit(requestRetries);
        return config;
    }

    private static KubernetesClient build(ClientSettings settings, KubeSourceOptions options, RequestObserver observer, Config config) {
        config.setMasterUrl(settings.server());
        set(settings.caFile(), config::setCaCertFile);
        set(settings.caData(), config::setCaCertData);
        config.setTrustCerts(settings.insecure());
        set(settings.tlsServerName(), config::setTlsServerName);
        set(settings.clientCertFile(), config::setClientCertFile);
        set(settings.clientCertData(), config::setClientCertData);
        set(settings.clientKeyFile(), config::setClientKeyFile);
        set(settings.clientKeyData(), config::setClientKeyData);
        if (!settings.clientKeyFile().isEmpty() || !settings.clientKeyData().isEmpty()) {
            set(KeyAlgorithm.of(settings.clientKeyFile(), settings.clientKeyData()), config::setClientKeyAlgo);
        }
        set(settings.username(), config::setUsername);
        set(settings.password(), config::setPassword);
        settings.token().ifPresent(t -> config.setOauthTokenProvider(new TokenProvider(t, settings.server())));
        config.setWatchReconnectInterval(Math.toIntExact(options.watchReconnectInterval().toMillis()));
        config.setWatchReconnectLimit(-1);
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withKubernetesSerialization(serialization())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("kproxy-source", observer)
                        .addOrReplaceInterceptor("HttpLogging", null))
                .build();
    }

    private static void set(String value, java.util.function.Consumer<String> setter) {
        if (!value.isEmpty()) {
            setter.accept(value);
        }
    }

    /**
     * fabric8's serialization with the raw classes registered for their kinds (this client only),
     * and {@code Status}, the one typed kind the source reads by its kind: a watch's ERROR event
     * (a 410 Gone among them), which fabric8 recognises with {@code instanceof Status}. Nothing
     * else is registered: fabric8's default ({@code searchClassloaders}) registers every model
     * class of every model jar on the class path (about 620 classes loaded, most of kinds the
     * agent never reads; 8 MB of RSS and 0.35 s of CPU at start-up: docs/benchmarks.md, "Scale").
     * Responses read into a named class (an Event the recorder created, a Lease) do not need it.
     */
    static KubernetesSerialization serialization() {
        KubernetesSerialization serialization = new KubernetesSerialization(new ObjectMapper(), false);
        serialization.registerKubernetesResource(Status.class);
        serialization.registerKubernetesResource(RawObject.RawService.class);
        serialization.registerKubernetesResource(RawObject.RawEndpointSlice.class);
        serialization.registerKubernetesResource(RawObject.RawNode.class);
        serialization.registerKubernetesResource(RawObject.RawServiceCidr.class);
        return serialization;
    }
}

package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kproxy.source.kube.KubeSourceOptions;
import java.io.File;

/**
 * Builds the fabric8 client the source uses: JDK HTTP client, unlimited watch reconnects, and a
 * serialization of its own in which Services, EndpointSlices and Nodes decode to the source's
 * {@link RawObject} classes, so that watch events (which fabric8 decodes by {@code apiVersion}
 * and {@code kind}, not by the informer's class) skip the typed model as lists do.
 */
public final class ClientFactory {

    private ClientFactory() {
    }

    /**
     * A client for {@code options}, with {@code observer} on every request. Reads the
     * kubeconfig (blocking file I/O) when one is named or found.
     */
    public static KubernetesClient create(KubeSourceOptions options, RequestObserver observer) {
        Config config;
        if (!options.kubeconfig().isEmpty()) {
            config = Config.fromKubeconfig(new File(options.kubeconfig()));
        } else if (!options.masterUrl().isEmpty()) {
            // upstream: --master without a kubeconfig talks to that URL with no credentials
            config = Config.empty();
        } else {
            config = Config.autoConfigure(null);
        }
        if (!options.masterUrl().isEmpty()) {
            config.setMasterUrl(options.masterUrl());
        }
        config.setWatchReconnectInterval(Math.toIntExact(options.watchReconnectInterval().toMillis()));
        config.setWatchReconnectLimit(-1);
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withKubernetesSerialization(serialization())
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("kproxy-source", observer))
                .build();
    }

    /** fabric8's serialization with the raw classes registered for their kinds (this client only). */
    static KubernetesSerialization serialization() {
        KubernetesSerialization serialization = new KubernetesSerialization();
        serialization.registerKubernetesResource(RawObject.RawService.class);
        serialization.registerKubernetesResource(RawObject.RawEndpointSlice.class);
        serialization.registerKubernetesResource(RawObject.RawNode.class);
        return serialization;
    }
}

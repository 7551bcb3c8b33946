package io.kproxy.source.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;

/** Test-only: fabric8 objects for the mock API server, and one-line changes through a client. */
final class Kube {

    static final String NS = "ns1";

    private Kube() {
    }

    static Service service(String name, String clusterIP, Map<String, String> labels) {
        return new ServiceBuilder()
                .withNewMetadata().withNamespace(NS).withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withType("ClusterIP").withClusterIP(clusterIP)
                .addNewPort().withName("http").withPort(80).withProtocol("TCP").endPort()
                .endSpec().build();
    }

    static EndpointSlice slice(String name, String serviceName, String ip, Map<String, String> extraLabels) {
        return new EndpointSliceBuilder()
                .withNewMetadata().withNamespace(NS).withName(name)
                .addToLabels("kubernetes.io/service-name", serviceName).addToLabels(extraLabels)
                .addToAnnotations("endpoints.kubernetes.io/last-change-trigger-time", "2025-01-02T03:04:05Z")
                .endMetadata()
                .withAddressType("IPv4")
                .addNewEndpoint().withAddresses(ip).withNewConditions().withReady(true).endConditions().endEndpoint()
                .addNewPort().withName("http").withPort(8080).withProtocol("TCP").endPort()
                .build();
    }

    static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("topology.kubernetes.io/zone", "z1").endMetadata()
                .withNewSpec().withPodCIDRs("10.244.0.0/24").endSpec().build();
    }

    /** The {@code networking.k8s.io/v1} ServiceCIDR resource, named explicitly (the mock serves no discovery). */
    static final ResourceDefinitionContext SERVICE_CIDRS = new ResourceDefinitionContext.Builder().withGroup("networking.k8s.io")
            .withVersion("v1").withKind("ServiceCIDR").withPlural("servicecidrs").withNamespaced(false).build();

    static GenericKubernetesResource serviceCidr(String name, String... cidrs) {
        return new GenericKubernetesResourceBuilder().withApiVersion("networking.k8s.io/v1").withKind("ServiceCIDR")
                .withNewMetadata().withName(name).endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("cidrs", List.of(cidrs)))).build();
    }

    static void create(KubernetesClient c, GenericKubernetesResource serviceCidr) {
        c.genericKubernetesResources(SERVICE_CIDRS).resource(serviceCidr).create();
    }

    static void replaceServiceCidr(KubernetesClient c, String name, String... cidrs) {
        c.genericKubernetesResources(SERVICE_CIDRS).withName(name).edit(r -> {
            r.setAdditionalProperty("spec", Map.of("cidrs", List.of(cidrs)));
            return r;
        });
    }

    static void deleteServiceCidr(KubernetesClient c, String name) {
        c.genericKubernetesResources(SERVICE_CIDRS).withName(name).delete();
    }

    static void create(KubernetesClient c, Service s) {
        c.services().inNamespace(NS).resource(s).create();
    }

    static void create(KubernetesClient c, EndpointSlice s) {
        c.discovery().v1().endpointSlices().inNamespace(NS).resource(s).create();
    }

    static void create(KubernetesClient c, Node n) {
        c.nodes().resource(n).create();
    }

    static void labelService(KubernetesClient c, String name, String key, String value) {
        c.services().inNamespace(NS).withName(name).edit(s -> {
            s.getMetadata().getLabels().put(key, value);
            return s;
        });
    }

    static void deleteService(KubernetesClient c, String name) {
        c.services().inNamespace(NS).withName(name).delete();
    }

    static void labelNode(KubernetesClient c, String name, String key, String value) {
        c.nodes().withName(name).edit(n -> {
            n.getMetadata().getLabels().put(key, value);
            return n;
        });
    }
}

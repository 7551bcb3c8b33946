package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ResourceKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestObserverTest {

    @ParameterizedTest
    @CsvSource(nullValues = "none", value = {
        "/api/v1/services, SERVICE",
        "/api/v1/namespaces/ns1/services, SERVICE",
        "/apis/discovery.k8s.io/v1/endpointslices, ENDPOINT_SLICE",
        "/api/v1/nodes, NODE",
        "/api/v1/namespaces/ns1/services/web, none",
        "/api/v1/pods, none",
        "/version, none"})
    void classifiesRequestPaths(String path, ResourceKind kind) {
        assertThat(RequestObserver.kindOf(path)).isEqualTo(kind);
    }
}

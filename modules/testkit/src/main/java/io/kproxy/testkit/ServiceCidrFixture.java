package io.kproxy.testkit;

import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.model.Json;
import java.util.List;
import java.util.Map;

/** Builds a {@code networking.k8s.io/v1} ServiceCIDR object. Not thread-safe. */
public final class ServiceCidrFixture {

    private final String name;
    private final List<String> cidrs;
    private String resourceVersion = "1";

    private ServiceCidrFixture(String name, List<String> cidrs) {
        this.name = name;
        this.cidrs = List.copyOf(cidrs);
    }

    /** A ServiceCIDR named {@code name} with {@code spec.cidrs} as given (not validated). */
    public static ServiceCidrFixture serviceCidr(String name, String... cidrs) {
        return new ServiceCidrFixture(name, List.of(cidrs));
    }

    public ServiceCidrFixture resourceVersion(String rv) {
        this.resourceVersion = rv;
        return this;
    }

    public Json.Obj build() {
        return Json.obj(
                "apiVersion", Json.of("networking.k8s.io/v1"),
                "kind", Json.of("ServiceCIDR"),
                "metadata", Fixtures.metadata("", name, resourceVersion, Map.of(), Map.of()),
                "spec", Json.obj("cidrs", Fixtures.strings(cidrs)));
    }

    public ServiceCIDRObserved observed() {
        return new ServiceCIDRObserved(name, resourceVersion, build());
    }

    public ServiceCIDRDeleted deleted() {
        return new ServiceCIDRDeleted(name, resourceVersion, false);
    }
}

package io.kproxy.state;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.SliceSpec.AddressType;
import io.kproxy.state.SliceSpec.SliceEndpoint;
import io.kproxy.state.SliceSpec.SlicePort;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Turns an observed EndpointSlice into a {@link SliceSpec} the way upstream's
 * {@code newEndpointSliceInfo} and {@code endpointInfoByServicePort} read it
 * ({@code pkg/proxy/endpointslicecache.go}, {@code endpointschangetracker.go}): grouped by label
 * {@code kubernetes.io/service-name}; ports without a name or number ignored; endpoints without
 * an address, or whose address does not parse or is of the other family, ignored.
 */
final class SliceParser {

    static final String LABEL_SERVICE_NAME = "kubernetes.io/service-name";

    private SliceParser() {
    }

    /**
     * The slice, or empty when kube-proxy would not see it: no service-name label (reported), or
     * a label that the informer selector filters out (treated like a deleted slice).
     */
    static Optional<SliceSpec> parse(EndpointSliceRef ref, Origin origin, Json.Obj object, Problems p) {
        Json.Obj labels = JsonRead.object(JsonRead.object(object, "metadata", "metadata", p), "labels", "metadata.labels", p);
        if (labels.fields().containsKey(ServiceParser.LABEL_PROXY_NAME) || labels.fields().containsKey(ServiceParser.LABEL_HEADLESS)) {
            return Optional.empty();
        }
        String field = "metadata.labels[" + LABEL_SERVICE_NAME + "]";
        String serviceName = JsonRead.string(labels, LABEL_SERVICE_NAME, field, p).orElse("");
        if (serviceName.isEmpty()) {
            p.add(field, "no " + LABEL_SERVICE_NAME + " label; slice ignored");
            return Optional.empty();
        }
        ServiceRef service;
        try {
            service = new ServiceRef(ref.namespace(), serviceName);
        } catch (InvalidValueException e) {
            p.add(field, e, "slice ignored");
            return Optional.empty();
        }
        String addressType = JsonRead.string(object, "addressType", "addressType", p).orElse("");
        AddressType type = switch (addressType) {
            case "IPv4" -> AddressType.IPV4;
            case "IPv6" -> AddressType.IPV6;
            default -> AddressType.OTHER;
        };
        if (type == AddressType.OTHER) {
            if (!addressType.equals("FQDN")) {
                p.add("addressType", "unsupported address type \"" + addressType + "\"; slice ignored");
            }
            return Optional.of(new SliceSpec(ref, origin, service, type, List.of(), List.of()));
        }
        return Optional.of(new SliceSpec(ref, origin, service, type, ports(service, object, p), endpoints(type, object, p)));
    }

    private static List<SlicePort> ports(ServiceRef service, Json.Obj object, Problems p) {
        List<Json.Obj> items = JsonRead.objects(object, "ports", "ports", p);
        List<SlicePort> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String at = "ports[" + i + "]";
            Json.Obj item = items.get(i);
            Optional<String> name = JsonRead.string(item, "name", at + ".name", p);
            if (name.isEmpty()) {
                p.add(at + ".name", "port with nil name; ignored");
                continue;
            }
            OptionalLong number = JsonRead.integer(item, "port", at + ".port", p);
            if (number.isEmpty() || number.getAsLong() == 0) {
                p.add(at + ".port", "port with nil or zero number; ignored");
                continue;
            }
            try {
                Protocol protocol = Protocol.parse(at + ".protocol", JsonRead.string(item, "protocol", at + ".protocol", p).orElse("TCP"));
                new ServicePortName(service, name.get(), protocol); // validates the name
                out.add(new SlicePort(name.get(), protocol, Port.of(at + ".port", number.getAsLong())));
            } catch (InvalidValueException e) {
                p.add(e.field().startsWith(at) ? e.field() : at + "." + e.field(), e, "port ignored");
            }
        }
        out.sort(Comparator.comparingInt(sp -> sp.port().value())); // byPort
        return out;
    }

    private record Keyed(String sortKey, SliceEndpoint endpoint) {
    }

    private static List<SliceEndpoint> endpoints(AddressType type, Json.Obj object, Problems p) {
        List<Json.Obj> items = JsonRead.objects(object, "endpoints", "endpoints", p);
        List<Keyed> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            String at = "endpoints[" + i + "]";
            Json.Obj item = items.get(i);
            List<String> addresses = JsonRead.strings(item, "addresses", at + ".addresses", p);
            if (addresses.isEmpty()) {
                p.add(at + ".addresses", "endpoint without addresses; ignored");
                continue;
            }
            IpAddress ip;
            try {
                ip = IpAddress.parse(at + ".addresses[0]", addresses.getFirst());
            } catch (InvalidValueException e) {
                p.add(at + ".addresses[0]", e, "endpoint ignored");
                continue;
            }
            if (!type.is(ip.family())) {
                p.add(at + ".addresses[0]", "address " + addresses.getFirst() + " is not of the slice's address type; endpoint ignored");
                continue;
            }
            Json.Obj cond = JsonRead.object(item, "conditions", at + ".conditions", p);
            boolean ready = JsonRead.bool(cond, "ready", at + ".conditions.ready", p).orElse(true);
            boolean serving = JsonRead.bool(cond, "serving", at + ".conditions.serving", p).orElse(true);
            boolean terminating = JsonRead.bool(cond, "terminating", at + ".conditions.terminating", p).orElse(false);
            String nodeName = JsonRead.string(item, "nodeName", at + ".nodeName", p).orElse("");
            Json.Obj hints = JsonRead.object(item, "hints", at + ".hints", p);
            Set<String> zones = hintNames(hints, "forZones", at + ".hints.forZones", p);
            Set<String> nodes = hintNames(hints, "forNodes", at + ".hints.forNodes", p);
            out.add(new Keyed(String.join(",", addresses), new SliceEndpoint(ip, ready, serving, terminating, nodeName, zones, nodes)));
        }
        out.sort(Comparator.comparing(Keyed::sortKey)); // byAddress
        return out.stream().map(Keyed::endpoint).toList();
    }

    private static Set<String> hintNames(Json.Obj hints, String key, String path, Problems p) {
        List<Json.Obj> items = JsonRead.objects(hints, key, path, p);
        if (items.isEmpty()) {
            return Set.of();
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            JsonRead.string(items.get(i), "name", path + "[" + i + "].name", p).ifPresent(names::add);
        }
        return names;
    }
}

package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * What the fold keeps of a {@code networking.k8s.io/v1} ServiceCIDR: its name, where it came
 * from, and the ranges of {@code spec.cidrs} that parse (upstream reads nothing else of it,
 * {@code pkg/proxy/config/config.go} ServiceCIDRConfig).
 *
 * @param name   the ServiceCIDR's name
 * @param origin the record that last set it
 * @param cidrs  its ranges in the object's order, the unparsable ones left out
 */
record ServiceCidrSpec(String name, Origin origin, List<Cidr> cidrs) {

    ServiceCidrSpec {
        if (name == null || name.isEmpty() || origin == null) {
            throw new IllegalArgumentException("name and origin are required");
        }
        cidrs = List.copyOf(cidrs);
    }

    /**
     * Reads {@code spec.cidrs}. A range that does not parse (the API server validates them, so
     * only a damaged or hand-made object has one) is skipped and reported; the others count.
     */
    static ServiceCidrSpec parse(String name, Origin origin, Json.Obj object, Problems p) {
        Json.Obj spec = JsonRead.object(object, "spec", "spec", p);
        List<String> text = JsonRead.strings(spec, "cidrs", "spec.cidrs", p);
        List<Cidr> cidrs = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            try {
                Cidr c = Cidr.parse("spec.cidrs", text.get(i));
                if (!cidrs.contains(c)) {
                    cidrs.add(c);
                }
            } catch (InvalidValueException e) {
                p.add("spec.cidrs[" + i + "]", e, "range ignored");
            }
        }
        if (text.isEmpty()) {
            p.add("spec.cidrs", "no ranges; the ServiceCIDR adds none");
        }
        return new ServiceCidrSpec(name, origin, cidrs);
    }
}

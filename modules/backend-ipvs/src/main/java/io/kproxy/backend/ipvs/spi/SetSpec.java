package io.kproxy.backend.ipvs.spi;

import io.kproxy.model.IpFamily;

/**
 * An ipset as upstream creates it ({@code pkg/proxy/ipvs/ipset/ipset.go} {@code CreateSet}):
 * hash types with {@code family inet|inet6 hashsize 1024 maxelem 65536}, {@code bitmap:port} with
 * {@code range 0-65535}. Immutable; no null components.
 *
 * @param name    the set's name (at most 31 characters)
 * @param type    {@code hash:ip}, {@code hash:ip,port}, {@code hash:ip,port,ip}, {@code hash:ip,port,net}
 *                or {@code bitmap:port}
 * @param family  the family of a hash set's addresses (a bitmap:port set has none; upstream
 *                creates them per family all the same)
 * @param comment upstream's comment for the set, used in the iptables rules that match it
 */
public record SetSpec(String name, String type, IpFamily family, String comment) {

    public SetSpec {
        if (name == null || name.isEmpty() || name.length() > 31 || type == null || family == null || comment == null) {
            throw new IllegalArgumentException("name (1..31 characters), type, family and comment are required");
        }
        if (!type.equals("bitmap:port") && !type.startsWith("hash:ip")) {
            throw new IllegalArgumentException("unsupported set type " + type);
        }
    }

    public boolean bitmap() {
        return type.equals("bitmap:port");
    }

    /** The arguments after {@code create NAME TYPE}, as upstream passes them. */
    public String options() {
        return bitmap() ? "range 0-65535" : "family " + (family == IpFamily.IPV4 ? "inet" : "inet6") + " hashsize 1024 maxelem 65536";
    }

    /** The {@code ipset save} / {@code ipset restore} line creating it. */
    public String createLine() {
        return "create " + name + " " + type + " " + options();
    }
}

package io.kproxy.netlink;

/**
 * A set to create: {@code ipset create <name> <type> family inet|inet6 hashsize <n> maxelem <n>}
 * or, for {@code bitmap:port}, {@code range <from>-<to>}.
 *
 * @param name 1 to 31 characters (IPSET_MAXNAMELEN is 32 with the NUL)
 * @param type the set type
 * @param ipv6 whether a hash set holds IPv6 addresses (bitmap:port has no family)
 * @param hashSize the initial hash size (hash types; 0: the kernel's default, 1024)
 * @param maxElements the most elements (hash types; 0: the kernel's default, 65536)
 * @param portFrom first port of a bitmap:port set
 * @param portTo last port of a bitmap:port set
 */
public record IpsetSpec(String name, IpsetType type, boolean ipv6, int hashSize, int maxElements, int portFrom, int portTo) {

    public IpsetSpec {
        if (name == null || type == null || name.isEmpty() || name.length() > 31) {
            throw new IllegalArgumentException("an ipset has a type and a name of 1 to 31 characters: " + name);
        }
        if (hashSize < 0 || maxElements < 0) {
            throw new IllegalArgumentException("negative hashsize or maxelem");
        }
        if (type == IpsetType.BITMAP_PORT && (portFrom < 0 || portTo > 65535 || portFrom > portTo)) {
            throw new IllegalArgumentException("bitmap:port range " + portFrom + "-" + portTo);
        }
    }

    /** A hash set with upstream's sizes (hashsize 1024, maxelem 65536: {@code pkg/util/ipset/ipset.go}). */
    public static IpsetSpec hash(String name, IpsetType type, boolean ipv6) {
        return new IpsetSpec(name, type, ipv6, 1024, 65536, 0, 0);
    }

    /** A bitmap:port set over every port, as upstream creates its node-port sets. */
    public static IpsetSpec ports(String name) {
        return new IpsetSpec(name, IpsetType.BITMAP_PORT, false, 0, 0, 0, 65535);
    }
}

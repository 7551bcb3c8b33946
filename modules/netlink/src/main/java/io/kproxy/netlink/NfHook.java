package io.kproxy.netlink;

/**
 * A base chain's hook: chain type ({@code filter}, {@code nat}), {@code NF_INET_*} hook number
 * (0 prerouting, 1 input, 2 forward, 3 output, 4 postrouting) and priority. Immutable.
 */
public record NfHook(String type, int hooknum, int priority) {

    public NfHook {
        if (type == null || type.isEmpty() || hooknum < 0 || hooknum > 4) {
            throw new IllegalArgumentException("a hook has a chain type and an inet hook number");
        }
    }
}

package io.kproxy.backend.ipvs.spi;

import io.kproxy.backend.KernelException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * An in-memory {@link IpvsKernel}, as strict as the kernel: adding what exists and deleting what
 * does not fail, an entry goes only into an existing set, an {@code -A} only into a declared
 * chain. Connection counts are set by tests ({@link #setConnections}); a failure can be injected
 * per operation ({@link #failWhen}). {@link #dump()} prints everything in a canonical order, so
 * that two fakes can be compared. Thread-safe (every method synchronized); never blocks.
 */
public final class MemoryIpvsKernel implements IpvsKernel {

    private final TreeMap<VsKey, VirtualServer> services = new TreeMap<>();
    private final Map<VsKey, TreeMap<String, Destination>> destinations = new TreeMap<>();
    private final TreeMap<String, SetSpec> sets = new TreeMap<>();
    private final Map<String, TreeSet<String>> entries = new TreeMap<>();
    private final TreeMap<String, TreeSet<IpAddress>> links = new TreeMap<>();
    private final Map<String, LinkedHashMap<String, List<String>>> tables = new TreeMap<>();
    private final TreeSet<String> jumps = new TreeSet<>();
    private final TreeMap<String, Integer> sysctls = new TreeMap<>();
    private final List<String> operations = new ArrayList<>();
    private String timeouts = "";
    private Optional<List<IpAddress>> localAddresses = Optional.empty();
    private Set<String> missingSchedulers = Set.of();
    private Predicate<String> failWhen = op -> false;

    /** Every later operation whose description matches {@code when} fails (retryable). */
    public synchronized void failWhen(Predicate<String> when) {
        this.failWhen = when;
    }

    /** Sets the connection counts the kernel reports for a destination. */
    public synchronized void setConnections(VsKey vs, IpAddress address, int port, int active, int inactive) {
        TreeMap<String, Destination> d = destinations.get(vs);
        Destination old = d == null ? null : d.get(VsKey.hostPort(address, port));
        if (old == null) {
            throw new IllegalArgumentException("no destination " + VsKey.hostPort(address, port) + " of " + vs);
        }
        d.put(VsKey.hostPort(address, port), new Destination(old.server(), active, inactive));
    }

    /**
     * The node's local addresses {@link #localAddresses} reports from now on (those of
     * {@code kube-ipvs0}, the link a caller excludes, are never among them here).
     */
    public synchronized void setLocalAddresses(List<IpAddress> addresses) {
        this.localAddresses = Optional.of(List.copyOf(addresses));
    }

    /** The schedulers this kernel lacks from now on ({@link #hasScheduler} answers false, adding a virtual server with one fails). */
    public synchronized void setMissingSchedulers(Set<String> names) {
        this.missingSchedulers = Set.copyOf(names);
    }

    @Override
    public synchronized Optional<List<IpAddress>> localAddresses(String except) {
        return localAddresses;
    }

    @Override
    public synchronized boolean hasScheduler(String name) {
        return !missingSchedulers.contains(name);
    }

    /** Every mutating operation so far, one description each, in order. */
    public synchronized List<String> operations() {
        return List.copyOf(operations);
    }

    /** Forgets the recorded operations. */
    public synchronized void clearOperations() {
        operations.clear();
    }

    private void op(String description) throws KernelException {
        if (failWhen.test(description)) {
            throw new KernelException(KernelException.Kind.RETRYABLE, "injected failure: " + description);
        }
        operations.add(description);
    }

    private static KernelException refused(String why) {
        return new KernelException(KernelException.Kind.FATAL, why);
    }

    @Override
    public synchronized List<VirtualServer> virtualServers() {
        return List.copyOf(services.values());
    }

    @Override
    public synchronized void addVirtualServer(VirtualServer vs) throws KernelException {
        if (services.containsKey(vs.key())) {
            throw refused("virtual server exists: " + vs.key());
        }
        if (missingSchedulers.contains(vs.scheduler())) {
            throw refused("no scheduler " + vs.scheduler() + " (ENOENT)");
        }
        op("add-vs " + vs);
        services.put(vs.key(), vs);
        destinations.put(vs.key(), new TreeMap<>());
    }

    @Override
    public synchronized void updateVirtualServer(VirtualServer vs) throws KernelException {
        if (!services.containsKey(vs.key())) {
            throw refused("no virtual server " + vs.key());
        }
        if (missingSchedulers.contains(vs.scheduler())) {
            throw refused("no scheduler " + vs.scheduler() + " (ENOENT)");
        }
        op("update-vs " + vs);
        services.put(vs.key(), vs);
    }

    @Override
    public synchronized void deleteVirtualServer(VsKey key) throws KernelException {
        if (!services.containsKey(key)) {
            throw refused("no virtual server " + key);
        }
        op("delete-vs " + key);
        services.remove(key);
        destinations.remove(key);
    }

    @Override
    public synchronized List<Destination> realServers(VsKey vs) throws KernelException {
        TreeMap<String, Destination> d = destinations.get(vs);
        if (d == null) {
            throw refused("no virtual server " + vs);
        }
        return List.copyOf(d.values());
    }

    @Override
    public synchronized void addRealServer(VsKey vs, RealServer rs) throws KernelException {
        TreeMap<String, Destination> d = destinations.get(vs);
        if (d == null || d.containsKey(rs.hostPort())) {
            throw refused("cannot add " + rs.hostPort() + " to " + vs);
        }
        if (rs.address().family() != vs.address().family()) {
            throw refused("family mismatch " + rs.hostPort() + " in " + vs);
        }
        op("add-rs " + vs + " " + rs);
        d.put(rs.hostPort(), new Destination(rs, 0, 0));
    }

    @Override
    public synchronized void updateRealServer(VsKey vs, RealServer rs) throws KernelException {
        TreeMap<String, Destination> d = destinations.get(vs);
        Destination old = d == null ? null : d.get(rs.hostPort());
        if (old == null) {
            throw refused("no destination " + rs.hostPort() + " of " + vs);
        }
        op("update-rs " + vs + " " + rs);
        d.put(rs.hostPort(), new Destination(rs, old.activeConnections(), old.inactiveConnections()));
    }

    @Override
    public synchronized void deleteRealServer(VsKey vs, IpAddress address, int port) throws KernelException {
        TreeMap<String, Destination> d = destinations.get(vs);
        if (d == null || !d.containsKey(VsKey.hostPort(address, port))) {
            throw refused("no destination " + VsKey.hostPort(address, port) + " of " + vs);
        }
        op("delete-rs " + vs + " " + VsKey.hostPort(address, port));
        d.remove(VsKey.hostPort(address, port));
    }

    @Override
    public synchronized void setTimeouts(Duration tcp, Duration tcpFin, Duration udp) throws KernelException {
        op("timeouts " + tcp.toSeconds() + " " + tcpFin.toSeconds() + " " + udp.toSeconds());
        timeouts = tcp.toSeconds() + " " + tcpFin.toSeconds() + " " + udp.toSeconds();
    }

    @Override
    public synchronized List<String> sets() {
        return List.copyOf(sets.keySet());
    }

    @Override
    public synchronized void createSet(SetSpec set) throws KernelException {
        SetSpec old = sets.get(set.name());
        if (old != null && !old.type().equals(set.type())) {
            throw refused("set " + set.name() + " exists with type " + old.type());
        }
        if (old == null) {
            op("create-set " + set.name());
            sets.put(set.name(), set);
            entries.put(set.name(), new TreeSet<>());
        }
    }

    @Override
    public synchronized void destroySet(String name) throws KernelException {
        if (!sets.containsKey(name)) {
            throw refused("no set " + name);
        }
        op("destroy-set " + name);
        sets.remove(name);
        entries.remove(name);
    }

    @Override
    public synchronized List<String> setEntries(String name) throws KernelException {
        TreeSet<String> e = entries.get(name);
        if (e == null) {
            throw refused("no set " + name);
        }
        return List.copyOf(e);
    }

    @Override
    public synchronized void addSetEntry(String set, String entry) throws KernelException {
        TreeSet<String> e = entries.get(set);
        if (e == null || e.contains(entry)) {
            throw refused("cannot add " + entry + " to " + set);
        }
        op("add-entry " + set + " " + entry);
        e.add(entry);
    }

    @Override
    public synchronized void deleteSetEntry(String set, String entry) throws KernelException {
        TreeSet<String> e = entries.get(set);
        if (e == null || !e.contains(entry)) {
            throw refused("no entry " + entry + " in " + set);
        }
        op("delete-entry " + set + " " + entry);
        e.remove(entry);
    }

    @Override
    public synchronized boolean linkExists(String name) {
        return links.containsKey(name);
    }

    @Override
    public synchronized void ensureDummyLink(String name) throws KernelException {
        if (!links.containsKey(name)) {
            op("add-link " + name);
            links.put(name, new TreeSet<>());
        }
    }

    @Override
    public synchronized void deleteLink(String name) throws KernelException {
        if (links.containsKey(name)) {
            op("delete-link " + name);
            links.remove(name);
        }
    }

    @Override
    public synchronized List<IpAddress> addresses(String link) {
        TreeSet<IpAddress> a = links.get(link);
        return a == null ? List.of() : List.copyOf(a);
    }

    @Override
    public synchronized void addAddress(String link, IpAddress address) throws KernelException {
        TreeSet<IpAddress> a = links.get(link);
        if (a == null || a.contains(address)) {
            throw refused("cannot add " + address + " to " + link);
        }
        op("add-address " + link + " " + address);
        a.add(address);
    }

    @Override
    public synchronized void deleteAddress(String link, IpAddress address) throws KernelException {
        TreeSet<IpAddress> a = links.get(link);
        if (a == null || !a.contains(address)) {
            throw refused("no address " + address + " on " + link);
        }
        op("delete-address " + link + " " + address);
        a.remove(address);
    }

    /**
     * {@code --noflush} semantics: a declared chain ({@code :NAME - [0:0]}) is created or
     * flushed, {@code -A} appends to a declared or existing chain, {@code -X} deletes an empty
     * chain. The whole text is checked before anything changes.
     */
    @Override
    public synchronized void iptablesRestore(IpFamily family, String text) throws KernelException {
        Map<String, LinkedHashMap<String, List<String>>> next = new TreeMap<>();
        tables.forEach((k, v) -> {
            LinkedHashMap<String, List<String>> copy = new LinkedHashMap<>();
            v.forEach((c, r) -> copy.put(c, new ArrayList<>(r)));
            next.put(k, copy);
        });
        String table = null;
        int n = 0;
        for (String line : text.split("\n")) {
            n++;
            if (line.isBlank() || line.startsWith("#") || line.equals("COMMIT")) {
                continue;
            }
            if (line.startsWith("*")) {
                table = family + " " + line.substring(1);
                next.computeIfAbsent(table, t -> new LinkedHashMap<>());
                continue;
            }
            if (table == null) {
                throw refused("line " + n + ": no table: " + line);
            }
            LinkedHashMap<String, List<String>> chains = next.get(table);
            if (line.startsWith(":")) {
                chains.put(line.substring(1, line.indexOf(' ')), new ArrayList<>());
            } else if (line.startsWith("-A ")) {
                String chain = line.substring(3, line.indexOf(' ', 3));
                List<String> rules = chains.get(chain);
                if (rules == null) {
                    throw refused("line " + n + ": no chain " + chain);
                }
                rules.add(line);
            } else if (line.startsWith("-X ")) {
                List<String> rules = chains.remove(line.substring(3).strip());
                if (rules == null || !rules.isEmpty()) {
                    throw refused("line " + n + ": cannot delete " + line.substring(3));
                }
            } else {
                throw refused("line " + n + ": unsupported " + line);
            }
        }
        op("iptables-restore " + family);
        tables.clear();
        tables.putAll(next);
    }

    @Override
    public synchronized void ensureJump(IpFamily family, String table, String chain, String comment, String target) throws KernelException {
        String j = family + " " + table + " " + chain + " \"" + comment + "\" -j " + target;
        if (!jumps.contains(j)) {
            op("ensure-jump " + j);
            jumps.add(j);
        }
    }

    @Override
    public synchronized void deleteJump(IpFamily family, String table, String chain, String comment, String target) throws KernelException {
        String j = family + " " + table + " " + chain + " \"" + comment + "\" -j " + target;
        if (jumps.contains(j)) {
            op("delete-jump " + j);
            jumps.remove(j);
        }
    }

    @Override
    public synchronized void setSysctl(String name, int value) throws KernelException {
        op("sysctl " + name + "=" + value);
        sysctls.put(name, value);
    }

    /** Everything the fake holds, in a canonical order (weights included, connection counts not). */
    public synchronized String dump() {
        StringBuilder b = new StringBuilder();
        services.forEach((k, vs) -> {
            b.append("vs ").append(vs).append('\n');
            destinations.get(k).values().forEach(d -> b.append("  rs ").append(d.server()).append('\n'));
        });
        sets.forEach((name, spec) -> {
            b.append(spec.createLine()).append('\n');
            entries.get(name).forEach(e -> b.append("  ").append(e).append('\n'));
        });
        links.forEach((name, addrs) -> b.append("link ").append(name).append(' ').append(addrs).append('\n'));
        tables.forEach((t, chains) -> chains.forEach((c, rules) -> {
            b.append(t).append(" :").append(c).append('\n');
            rules.forEach(r -> b.append("  ").append(r).append('\n'));
        }));
        jumps.forEach(j -> b.append("jump ").append(j).append('\n'));
        sysctls.forEach((k, v) -> b.append("sysctl ").append(k).append('=').append(v).append('\n'));
        b.append("timeouts ").append(timeouts).append('\n');
        return b.toString();
    }
}

package io.kproxy.backend.testkit;

import io.kproxy.model.Protocol;
import io.kproxy.state.Endpoint;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/**
 * Seeded random services for the property tests: every feature the renderers know, both
 * families. Not thread-safe (one {@link Random}); nothing here accepts or returns null.
 */
public final class RandomStates {

    private final Random random;

    public RandomStates(long seed) {
        this.random = new Random(seed);
    }

    /** Service port specs keyed by "ns/name" so they can be mutated step by step. */
    public TreeMap<String, States.PortSpec> initial(int services) {
        TreeMap<String, States.PortSpec> specs = new TreeMap<>();
        for (int i = 0; i < services; i++) {
            States.PortSpec s = randomSpec(i);
            specs.put(s.ns + "/" + s.name, s);
        }
        return specs;
    }

    public States.PortSpec randomSpec(int i) {
        boolean v6 = random.nextInt(3) == 0;
        String ns = "ns" + random.nextInt(4);
        String name = "svc" + i;
        String cip = v6 ? "fd00:30::" + Integer.toHexString(i + 1) : "172.30." + (i / 250) + "." + (i % 250 + 1);
        States.PortSpec s = States.port(ns, name, random.nextBoolean() ? "p" + (80 + random.nextInt(3)) : "", cip, 80 + random.nextInt(3));
        s.protocol = Protocol.values()[random.nextInt(3)];
        if (random.nextInt(3) == 0) {
            s.nodePort = 30000 + i;
        }
        if (random.nextInt(4) == 0) {
            s.externalIPs.add(v6 ? "fd00:99::" + Integer.toHexString(random.nextInt(8) + 1) : "192.168.99." + (random.nextInt(8) + 1));
        }
        if (random.nextInt(4) == 0) {
            s.lbIPs.add(v6 ? "fd00:51::" + Integer.toHexString(random.nextInt(8) + 1) : "198.51.100." + (random.nextInt(8) + 1));
            if (random.nextBoolean()) {
                s.sourceRanges.add(v6 ? "fd00:203::/121" : "203.0.113.0/25");
            }
        }
        s.etpLocal = random.nextInt(3) == 0;
        s.itpLocal = random.nextInt(5) == 0;
        s.affinity = random.nextInt(4) == 0 ? 10 + random.nextInt(3) * 100 : 0;
        s.endpoints = randomEndpoints(v6);
        return s;
    }

    public List<Endpoint> randomEndpoints(boolean v6) {
        List<Endpoint> eps = new ArrayList<>();
        int n = random.nextInt(5);
        for (int k = 0; k < n; k++) {
            int host = random.nextInt(6) + 1;
            boolean local = random.nextBoolean();
            String ip = v6 ? "fd00:10:0:" + (local ? 1 : 2) + "::" + host : "10.0." + (local ? 1 : 2) + "." + host;
            int port = 8000 + random.nextInt(2);
            if (eps.stream().anyMatch(e -> e.hostPort().equals(v6 ? "[" + States.ip(ip) + "]:" + port : ip + ":" + port))) {
                continue;
            }
            eps.add(random.nextInt(6) == 0 ? States.terminating(ip, port, local, random.nextBoolean()) : States.ep(ip, port, local));
        }
        return eps;
    }

    /** Mutates one to three services: endpoints, features, removal or addition. */
    public void mutate(TreeMap<String, States.PortSpec> specs, int nextIndex) {
        int changes = 1 + random.nextInt(3);
        for (int c = 0; c < changes; c++) {
            List<String> keys = new ArrayList<>(specs.keySet());
            int what = random.nextInt(10);
            if (keys.isEmpty() || what == 0) {
                States.PortSpec s = randomSpec(nextIndex + c);
                specs.put(s.ns + "/" + s.name, s);
                continue;
            }
            States.PortSpec s = specs.get(keys.get(random.nextInt(keys.size())));
            boolean v6 = s.clusterIP.contains(":");
            switch (what) {
                case 1 -> specs.remove(s.ns + "/" + s.name);
                case 2 -> s.etpLocal = !s.etpLocal;
                case 3 -> s.affinity = s.affinity == 0 ? 30 : s.affinity == 30 ? 60 : 0;
                case 4 -> s.nodePort = s.nodePort == 0 ? 31000 + random.nextInt(1000) : 0;
                case 5 -> s.itpLocal = !s.itpLocal;
                default -> s.endpoints = randomEndpoints(v6);
            }
        }
    }

    /** The specs built into a state on a node with the mode's defaults. */
    public static NodeState state(TreeMap<String, States.PortSpec> specs, States.NodeSpec node) {
        List<ServicePortState> ports = specs.values().stream().map(States.PortSpec::build).toList();
        return node.state(ports);
    }
}

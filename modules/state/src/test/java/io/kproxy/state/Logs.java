package io.kproxy.state;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.Envelope;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import io.kproxy.testkit.EventSequence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: fold event sequences and look entries up. */
final class Logs {

    static final String NODE = "test-node";

    private Logs() {
    }

    /** A log that starts with a config for {@link #NODE} and the sync barriers. */
    static EventSequence synced() {
        return EventSequence.create().config(NODE, Json.Obj.EMPTY).synced();
    }

    static EventSequence synced(Json.Obj config) {
        return EventSequence.create().config(NODE, config).synced();
    }

    static FoldedState fold(EventSequence seq) {
        return fold(FoldedState.initial(), seq.build());
    }

    static FoldedState fold(FoldedState from, List<Envelope> log) {
        FoldedState s = from;
        for (Envelope e : log) {
            if (e.offset() > s.offset()) {
                s = s.apply(e).state();
            }
        }
        return s;
    }

    /** Folds {@code seq}, then each of {@code more} as its own record, returning the steps of {@code more}. */
    static List<FoldStep> steps(FoldedState from, ClusterEvent... more) {
        List<FoldStep> out = new ArrayList<>();
        FoldedState s = from;
        for (ClusterEvent e : more) {
            FoldStep step = s.apply(new Envelope(s.offset() + 1, Instant.EPOCH, "test", e));
            out.add(step);
            s = step.state();
        }
        return out;
    }

    static FoldStep step(FoldedState from, ClusterEvent e) {
        return steps(from, e).getFirst();
    }

    static ServicePortName spn(String ns, String name, String port, Protocol protocol) {
        return new ServicePortName(new ServiceRef(ns, name), port, protocol);
    }

    static ServicePortName tcp(String ns, String name, String port) {
        return spn(ns, name, port, Protocol.TCP);
    }

    static ServicePortName udp(String ns, String name, String port) {
        return spn(ns, name, port, Protocol.UDP);
    }

    static ServicePortState v4(FoldedState s, ServicePortName key) {
        return s.node().ipv4().ports().get(key);
    }

    static ServicePortState v6(FoldedState s, ServicePortName key) {
        return s.node().ipv6().ports().get(key);
    }

    static ServicePortState entry(FoldedState s, IpFamily f, ServicePortName key) {
        return s.node().family(f).ports().get(key);
    }

    static List<String> hostPorts(List<Endpoint> eps) {
        return eps.stream().map(Endpoint::hostPort).toList();
    }

    static List<String> strings(List<?> values) {
        return values.stream().map(Object::toString).toList();
    }
}

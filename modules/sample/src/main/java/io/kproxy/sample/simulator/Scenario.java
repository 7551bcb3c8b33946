package io.kproxy.sample.simulator;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceRelisted;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.Consumer;

/**
 * The script of the sample hour (events/samples/README.md tells it as a story): the agent starts,
 * lists the cluster and syncs; deployments roll, scale and flap; at 03:12:04.5 an edit of
 * {@code shop/checkout} points its endpoints at port 8081, where nothing listens; from 03:30 to
 * 03:34:30 the API server is unreachable while {@code legacy/old-api} is deleted and one Service's
 * EndpointSlices are replaced, and the relist that follows drops what vanished; at 03:47:30 the
 * edit is reverted. Produces the source's records (times, sources, events) in time order; pure
 * and deterministic for a seed.
 */
final class Scenario {

    static final Instant START = Instant.parse("2026-11-22T03:00:00Z");
    static final Instant BAD_EDIT = Instant.parse("2026-11-22T03:12:04.500Z");
    static final Instant OUTAGE = Instant.parse("2026-11-22T03:30:00Z");
    static final Instant OLD_API_DELETED = Instant.parse("2026-11-22T03:31:10Z");
    static final Instant SLICES_REPLACED = Instant.parse("2026-11-22T03:32:20Z");
    static final Instant RELIST = Instant.parse("2026-11-22T03:34:30Z");
    static final Instant FIX = Instant.parse("2026-11-22T03:47:30Z");
    static final Instant CHURN_END = Instant.parse("2026-11-22T04:01:30Z");
    static final Instant END = Instant.parse("2026-11-22T04:02:00Z");

    /**
     * A moment the README documents: what happened, the record that tells it, and (when not
     * empty) what it means once the first sync covering it has programmed it.
     */
    record Moment(String what, ClusterEvent event, String whenProgrammed) {
        Moment(String what, ClusterEvent event) {
            this(what, event, "");
        }
    }

    private record Action(Instant at, long seq, Consumer<Instant> body) implements Comparable<Action> {
        @Override
        public int compareTo(Action o) {
            int c = at.compareTo(o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final ClusterModel m;
    private final Random random;
    private final Json.Obj config;
    private final PriorityQueue<Action> agenda = new PriorityQueue<>();
    private final List<Moment> moments = new ArrayList<>();
    private long seq;
    private Workload replaced;

    private Scenario(long seed, Json.Obj config) {
        this.random = new Random(seed);
        this.m = new ClusterModel(random);
        this.config = config;
    }

    /** The scripted history and its documented moments. */
    record Script(List<TimedEvent> events, List<Moment> moments) {
    }

    static Script write(long seed, Json.Obj config) {
        Scenario s = new Scenario(seed, config);
        s.run();
        return new Script(s.m.sortedEvents(), List.copyOf(s.moments));
    }

    private void at(Instant t, Consumer<Instant> body) {
        agenda.add(new Action(t, seq++, body));
    }

    private void run() {
        SampleServices.create(m);
        at(START, this::start);
        at(START.plusSeconds(60), this::churn);
        for (Instant t = START.plusSeconds(300).plusMillis(500); t.isBefore(END); t = t.plusSeconds(300)) {
            at(t, now -> m.nodeObserved(now));
        }
        at(BAD_EDIT, now -> retarget(now, 8081, "bad edit: shop/checkout targetPort 8080 -> 8081 (nothing listens there)",
                "shop/checkout's traffic goes to port 8081: connections refused"));
        at(OUTAGE, now -> m.disconnect());
        at(OLD_API_DELETED, now -> m.workloadDeleted(m.workloads().get(SampleServices.OLD_API), now));
        at(SLICES_REPLACED, this::replaceSlicesDuringOutage);
        at(RELIST, now -> {
            int before = m.events().size();
            m.relist(now, Duration.ofMillis(1));
            for (TimedEvent e : m.events().subList(before, m.events().size())) {
                if (e.event() instanceof SourceRelisted r && r.kind() == ResourceKind.SERVICE) {
                    moments.add(new Moment("relist after the outage: legacy/old-api (deleted meanwhile) is not listed", r,
                            "legacy/old-api's rules removed"));
                } else if (e.event() instanceof SourceRelisted r) {
                    moments.add(new Moment("relist after the outage: the slices deleted meanwhile are not listed", r,
                            "the vanished slices' endpoints removed"));
                } else if (e.event() instanceof EndpointSliceObserved o && replaced != null
                        && o.slice().namespace().equals(replaced.def().namespace()) && replaced.slices().contains(o.slice().name())) {
                    moments.add(new Moment("relist: " + replaced.def().key() + "'s new slice (its pods moved during the outage)", o));
                }
            }
        });
        at(FIX, now -> retarget(now, 8080, "fix: shop/checkout targetPort back to 8080", "shop/checkout serves again"));
        while (!agenda.isEmpty()) {
            Action a = agenda.poll();
            a.body().accept(a.at());
        }
    }

    /** The agent starts: its configuration, the Node, the initial lists and their barriers. */
    private void start(Instant t0) {
        m.record(new TimedEvent(t0, "engine", new ConfigRecorded(new NodeName(ClusterModel.NODE), config)));
        Instant t = t0.plusMillis(150);
        m.nodeObserved(t);
        m.synced(ResourceKind.NODE, t.plusMillis(10));
        t = t0.plusMillis(300);
        for (Workload w : m.workloads().values()) {
            m.serviceChanged(w, t);
            t = t.plusMillis(1);
        }
        m.synced(ResourceKind.SERVICE, t);
        t = t.plusMillis(50);
        for (Workload w : m.workloads().values()) {
            m.slicesChanged(w, t);
            t = t.plusMillis(3);
        }
        m.synced(ResourceKind.ENDPOINT_SLICE, t);
    }

    /** An edit of shop/checkout's target port; the EndpointSlice controller replaces both slices. */
    private void retarget(Instant t, int port, String what, String programmed) {
        Workload w = m.workloads().get(SampleServices.CHECKOUT);
        w.def(w.def().withTargetPort(port));
        int before = m.events().size();
        m.serviceChanged(w, t);
        moments.add(new Moment(what, m.events().getLast().event()));
        String oldV4 = w.sliceV4();
        String oldV6 = w.sliceV6();
        w.renameSlices(w.def().name() + "-" + m.suffix(5), w.def().name() + "-" + m.suffix(5));
        m.slicesChanged(w, t.plusMillis(500));
        m.sliceDeleted(w.def().namespace(), oldV4, t.plusMillis(520));
        m.sliceDeleted(w.def().namespace(), oldV6, t.plusMillis(522));
        List<TimedEvent> follow = m.events().subList(before + 1, m.events().size());
        for (int i = 0; i < follow.size(); i++) {
            ClusterEvent e = follow.get(i).event();
            String kind = e instanceof EndpointSliceObserved ? "new slice with port " + port : "old slice deleted";
            moments.add(new Moment("the EndpointSlice controller follows: " + kind, e, i == follow.size() - 1 ? programmed : ""));
        }
    }

    /**
     * While the API server is unreachable, one Service's pods are rescheduled (their node was
     * drained) and the EndpointSlice controller replaces its slices: the relist observes the new
     * slices, and its barrier drops the old ones.
     */
    private void replaceSlicesDuringOutage(Instant t) {
        Workload w = pick();
        replaced = w;
        for (String name : w.slices()) {
            m.sliceDeleted(w.def().namespace(), name, t);
        }
        List<Pod> old = List.copyOf(w.pods());
        w.pods().clear();
        w.template = m.suffix(10);
        for (Pod p : old) {
            m.release(p);
            w.pods().add(m.newPod(w, w.template, 0).asReady());
        }
        w.renameSlices(w.def().name() + "-" + m.suffix(5), w.def().dualStack() ? w.def().name() + "-" + m.suffix(5) : null);
        m.slicesChanged(w, t.plusMillis(300));
    }

    private Workload pick() {
        List<Workload> candidates = m.workloads().values().stream().filter(w -> !w.scripted() && !w.busy && !w.slices().isEmpty()).toList();
        return candidates.get(random.nextInt(candidates.size()));
    }

    /** One random change every 15 to 45 seconds until {@link #CHURN_END}. */
    private void churn(Instant t) {
        if (t.isAfter(CHURN_END)) {
            return;
        }
        Workload w = pick();
        double a = random.nextDouble();
        if (a < 0.45) {
            rollout(w, t);
        } else if (a < 0.65 && w.pods().size() < 6) {
            scaleUp(w, t);
        } else if (a < 0.85 && w.pods().size() > 1) {
            scaleDown(w, t);
        } else {
            flap(w, t);
        }
        at(t.plusMillis(15_000 + random.nextInt(30_000)), this::churn);
    }

    private Duration between(int minMillis, int maxMillis) {
        return Duration.ofMillis(minMillis + random.nextInt(maxMillis - minMillis + 1));
    }

    /** A Deployment rollout (maxSurge 1, maxUnavailable 0): one new pod ready, then one old pod terminates. */
    private void rollout(Workload w, Instant t) {
        w.busy = true;
        w.template = m.suffix(10);
        rolloutStep(w, w.template, List.copyOf(w.pods()), 0, t);
    }

    private void rolloutStep(Workload w, String template, List<Pod> old, int i, Instant t) {
        Pod fresh = m.newPod(w, template, 0);
        w.pods().add(fresh);
        m.slicesChanged(w, t);
        at(t.plus(between(3_000, 9_000)), ready -> {
            w.replace(fresh.name(), fresh.asReady());
            m.slicesChanged(w, ready);
            Pod o = old.get(i);
            boolean last = i == old.size() - 1;
            at(ready.plusMillis(250), term -> {
                w.replace(o.name(), o.asTerminating());
                m.slicesChanged(w, term);
                at(term.plus(between(5_000, 25_000)), gone -> {
                    w.remove(o.name());
                    m.release(o);
                    m.slicesChanged(w, gone);
                    if (last) {
                        w.busy = false;
                    }
                });
            });
            if (!last) {
                at(ready.plusMillis(500), next -> rolloutStep(w, template, old, i + 1, next));
            }
        });
    }

    private void scaleUp(Workload w, Instant t) {
        w.busy = true;
        Pod fresh = m.newPod(w, w.template, 0);
        w.pods().add(fresh);
        m.slicesChanged(w, t);
        at(t.plus(between(3_000, 9_000)), ready -> {
            w.replace(fresh.name(), fresh.asReady());
            m.slicesChanged(w, ready);
            w.busy = false;
        });
    }

    private void scaleDown(Workload w, Instant t) {
        w.busy = true;
        Pod o = w.pods().getLast();
        w.replace(o.name(), o.asTerminating());
        m.slicesChanged(w, t);
        at(t.plus(between(5_000, 25_000)), gone -> {
            w.remove(o.name());
            m.release(o);
            m.slicesChanged(w, gone);
            w.busy = false;
        });
    }

    /** A pod fails its readiness probe for a while (a dependency was slow), then recovers. */
    private void flap(Workload w, Instant t) {
        w.busy = true;
        Pod p = w.pods().get(random.nextInt(w.pods().size()));
        w.replace(p.name(), p.asUnready());
        m.slicesChanged(w, t);
        at(t.plus(between(20_000, 60_000)), back -> {
            w.replace(p.name(), p.asReady());
            m.slicesChanged(w, back);
            w.busy = false;
        });
    }
}

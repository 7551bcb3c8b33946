package io.kproxy.chaos;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a run found: faults by kind, convergence times per kind, connections per Service class,
 * the agent's peak RSS and file descriptors, and every violation. Rendered as text and as JSON.
 * Thread-safe (the traffic thread reports violations while the schedule runs).
 */
final class ChaosReport {

    private final long seed;
    private final Map<FaultKind, Integer> faults = new EnumMap<>(FaultKind.class);
    private final Map<FaultKind, List<Long>> convergence = new EnumMap<>(FaultKind.class);
    private final List<Violation> violations = new ArrayList<>();
    private long[] connections = new long[4];
    private long maxRssKib;
    private int maxFds;
    private long durationMillis;
    private int agentStarts;
    private int churnOps;
    private int goneAnswers;

    ChaosReport(long seed) {
        this.seed = seed;
    }

    synchronized void fault(FaultKind k, long convergedMillis) {
        faults.merge(k, 1, Integer::sum);
        if (convergedMillis >= 0) {
            convergence.computeIfAbsent(k, x -> new ArrayList<>()).add(convergedMillis);
        }
    }

    synchronized void violation(Violation v) {
        violations.add(v);
    }

    synchronized List<Violation> violations() {
        return List.copyOf(violations);
    }

    synchronized void resources(long rssKib, int fds) {
        maxRssKib = Math.max(maxRssKib, rssKib);
        maxFds = Math.max(maxFds, fds);
    }

    synchronized void finish(long durationMillis, Traffic t, int agentStarts, int churnOps, int goneAnswers) {
        this.durationMillis = durationMillis;
        this.connections = new long[] {t.sent(Traffic.ServiceClass.STABLE), t.failed(Traffic.ServiceClass.STABLE),
                t.sent(Traffic.ServiceClass.CHURNED), t.failed(Traffic.ServiceClass.CHURNED)};
        this.agentStarts = agentStarts;
        this.churnOps = churnOps;
        this.goneAnswers = goneAnswers;
    }

    synchronized int faultCount() {
        return faults.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The value at quantile {@code q} of {@code sorted} (nearest rank). */
    static long quantile(List<Long> sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    synchronized String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "kproxy chaos run: seed %d, %.1f min, %d faults, %d churn changes, %d agent starts%n", seed,
                durationMillis / 60_000.0, faultCount(), churnOps, agentStarts));
        sb.append(String.format(Locale.ROOT, "%-12s %6s %9s %9s %9s%n", "fault", "count", "p50 ms", "p99 ms", "max ms"));
        for (FaultKind k : FaultKind.values()) {
            List<Long> c = sorted(k);
            sb.append(String.format(Locale.ROOT, "%-12s %6d %9s %9s %9s%n", k, faults.getOrDefault(k, 0), c.isEmpty() ? "-" : quantile(c, 0.5),
                    c.isEmpty() ? "-" : quantile(c, 0.99), c.isEmpty() ? "-" : c.getLast()));
        }
        sb.append(String.format(Locale.ROOT, "watch requests answered 410: %d%n", goneAnswers));
        sb.append(String.format(Locale.ROOT, "connections: stable %d sent, %d failed; churned %d sent, %d failed (not a violation)%n",
                connections[0], connections[1], connections[2], connections[3]));
        sb.append(String.format(Locale.ROOT, "agent peak: RSS %d KiB, %d open fds%n", maxRssKib, maxFds));
        sb.append(String.format(Locale.ROOT, "violations: %d%n", violations.size()));
        for (Violation v : violations) {
            sb.append(String.format(Locale.ROOT, "  seed %d at %d ms [%s] during %s: %s%n", v.seed(), v.atMillis(), v.invariant(), v.fault(),
                    v.detail()));
        }
        return sb.toString();
    }

    synchronized String json() {
        StringBuilder sb = new StringBuilder("{\n");
        sb.append("  \"seed\": ").append(seed).append(",\n  \"durationMillis\": ").append(durationMillis).append(",\n");
        sb.append("  \"agentStarts\": ").append(agentStarts).append(",\n  \"churnChanges\": ").append(churnOps).append(",\n");
        sb.append("  \"watchRequestsAnswered410\": ").append(goneAnswers).append(",\n  \"faults\": {");
        String sep = "\n";
        for (FaultKind k : FaultKind.values()) {
            List<Long> c = sorted(k);
            sb.append(sep).append("    \"").append(k).append("\": {\"count\": ").append(faults.getOrDefault(k, 0));
            if (!c.isEmpty()) {
                sb.append(", \"convergenceMillis\": {\"p50\": ").append(quantile(c, 0.5)).append(", \"p99\": ").append(quantile(c, 0.99))
                        .append(", \"max\": ").append(c.getLast()).append('}');
            }
            sb.append('}');
            sep = ",\n";
        }
        sb.append("\n  },\n  \"connections\": {\"stable\": {\"sent\": ").append(connections[0]).append(", \"failed\": ").append(connections[1])
                .append("}, \"churned\": {\"sent\": ").append(connections[2]).append(", \"failed\": ").append(connections[3]).append("}},\n");
        sb.append("  \"agentPeak\": {\"rssKib\": ").append(maxRssKib).append(", \"openFds\": ").append(maxFds).append("},\n");
        sb.append("  \"violations\": [");
        sep = "\n";
        for (Violation v : violations) {
            sb.append(sep).append("    {\"seed\": ").append(v.seed()).append(", \"atMillis\": ").append(v.atMillis()).append(", \"invariant\": ")
                    .append(quote(v.invariant())).append(", \"fault\": ").append(quote(v.fault())).append(", \"detail\": ").append(quote(v.detail()))
                    .append('}');
            sep = ",\n";
        }
        return sb.append(violations.isEmpty() ? "]\n}\n" : "\n  ]\n}\n").toString();
    }

    private List<Long> sorted(FaultKind k) {
        List<Long> c = new ArrayList<>(convergence.getOrDefault(k, List.of()));
        c.sort(null);
        return c;
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}

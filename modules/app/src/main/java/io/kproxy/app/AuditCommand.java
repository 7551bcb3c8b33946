package io.kproxy.app;

import io.kproxy.history.History;
import io.kproxy.history.HistoryException;
import io.kproxy.history.Times;
import io.kproxy.journal.kafka.KafkaLogException;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.ServiceRef;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy audit --journal DIR NAMESPACE/SERVICE [--since TIME]}: the timeline of the
 * records that touched one Service, what the node had to program for it after each, and when
 * that reached the kernel ({@link History#audit}). Wiring only.
 */
@Command(name = "audit", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The timeline of one Service: every observation, relist and configuration that touched it, its endpoints after each "
                + "change, and when each change reached the kernel.",
                "TIME: RFC 3339 with a zone (2026-11-22T03:12:07Z), now, or -5m / -2h30m / -1d."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {HistoryExits.CODES_0, HistoryExits.CODES_1, HistoryExits.CODES_2, HistoryExits.CODES_4, HistoryExits.CODES_5})
final class AuditCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--journal", paramLabel = "DIR", description = "The journal directory (read only; a copy is fine).")
    Path journal;

    @Option(names = "--node", paramLabel = "NAME", description = "(--kafka-bootstrap-servers) The node to answer for.")
    String node;

    @Mixin
    FleetView fleet = new FleetView();

    @Parameters(index = "0", paramLabel = "NAMESPACE/SERVICE", description = "The Service, e.g. shop/checkout.")
    String service;

    @Option(names = "--since", paramLabel = "TIME", description = "Start at this time (default: the journal's start).")
    String since;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ServiceRef ref;
        try {
            ref = ServiceRef.parse(service);
        } catch (InvalidValueException e) {
            err.println("kproxy audit: " + e.getMessage() + " (expected NAMESPACE/SERVICE, e.g. shop/checkout)");
            return HistoryExits.USAGE;
        }
        try (History h = fleet.open(spec, journal, node, null, err, "audit")) {
            Optional<java.time.Instant> start = Optional.ofNullable(since).map(s -> Times.parse(s, Clock.systemUTC()));
            out.print(h.audit(ref, start));
            out.flush();
            return HistoryExits.OK;
        } catch (HistoryException e) {
            return HistoryExits.report(err, "audit", e);
        } catch (KafkaLogException e) {
            return FleetView.refused(err, "audit", e);
        } catch (ParameterException e) {
            throw e; // bad usage: picocli prints it with the usage, exit 2
        } catch (RuntimeException e) {
            return HistoryExits.failed(err, "audit", e);
        }
    }
}

package io.kproxy.app;

import io.kproxy.history.History;
import io.kproxy.history.HistoryException;
import io.kproxy.history.Point;
import io.kproxy.history.Times;
import io.kproxy.journal.kafka.KafkaLogException;
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
import picocli.CommandLine.Spec;

/**
 * {@code kproxy diff --journal DIR --from T1 --to T2}: the ruleset diff between what the node had
 * programmed at two times, grouped by Service, each change followed by the records between the
 * two times that touched that Service ({@link History#diff}). Wiring only.
 */
@Command(name = "diff", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"What changed in a node's rules between two times, grouped by Service, with the records that caused each change.",
                "TIME: RFC 3339 with a zone (2026-11-22T03:12:07Z), now, or -5m / -2h30m / -1d."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {HistoryExits.CODES_0, HistoryExits.CODES_1, HistoryExits.CODES_2, HistoryExits.CODES_4, HistoryExits.CODES_5})
final class DiffCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--journal", paramLabel = "DIR", description = "The journal directory (read only; a copy is fine).")
    Path journal;

    @Option(names = "--node", paramLabel = "NAME", description = "(--kafka-bootstrap-servers) The node to answer for.")
    String node;

    @Mixin
    FleetView fleet = new FleetView();

    @Option(names = "--from", required = true, paramLabel = "TIME", description = "The earlier time.")
    String from;

    @Option(names = "--to", required = true, paramLabel = "TIME", description = "The later time.")
    String to;

    @Option(names = "--mode", paramLabel = "MODE", description = "Render in this backend's language (default: the mode the node ran in).")
    String mode;

    @Option(names = "--desired", description = "Compare the desired states of the records up to each time, programmed or not.")
    boolean desired;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (History h = fleet.open(spec, journal, node, mode, err, "diff")) {
            // a topic holds no node's syncs: what the node would have programmed is the desired state
            boolean desired = this.desired || fleet.given();
            var t1 = Times.parse(from, Clock.systemUTC());
            var t2 = Times.parse(to, Clock.systemUTC());
            if (t2.isBefore(t1)) {
                throw new HistoryException(HistoryException.Reason.BAD_ARGUMENT, "--to " + to + " is before --from " + from);
            }
            Point a = desired ? h.desiredAt(t1) : h.at(t1);
            Point b = desired ? h.desiredAt(t2) : h.at(t2);
            out.print(h.diff(a, b, Optional.ofNullable(mode)));
            out.flush();
            return HistoryExits.OK;
        } catch (HistoryException e) {
            return HistoryExits.report(err, "diff", e);
        } catch (KafkaLogException e) {
            return FleetView.refused(err, "diff", e);
        } catch (ParameterException e) {
            throw e; // bad usage: picocli prints it with the usage, exit 2
        } catch (RuntimeException e) {
            return HistoryExits.failed(err, "diff", e);
        }
    }
}

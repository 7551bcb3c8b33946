package io.kproxy.app;

import io.kproxy.admin.AdminRequest;
import io.kproxy.history.HistoryException;
import io.kproxy.history.Times;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy rollback --to TIME}: asks the running agent (over its admin socket) to program
 * the node's rules as they were at TIME while it keeps journaling; answers once the journal says
 * the old generation is programmed. Rolling back while pinned re-pins to the new TIME. Exit
 * codes: {@link AdminCommands}.
 */
@Command(name = "rollback", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Program the rules the node had at TIME again (the agent keeps journaling; undo with kproxy resume).",
            "TIME: RFC 3339 with a zone (2026-11-22T03:12:07Z), now, or a time before now (-10m, -1h30m, -2d). The state at TIME "
                    + "is the fold of every record journaled at or before TIME. Rolling back while pinned re-pins.",
            "Exit: 0 done, 1 failed (journaled, not programmed), 2 refused, 69 no agent, 77 permission denied."})
final class RollbackCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    static final class To {
        @Option(names = "--to", paramLabel = "TIME", required = true, description = "The time whose rules to program.")
        String time;

        @Option(names = "--to-offset", paramLabel = "OFFSET", required = true,
                description = "The journal offset whose state to program (instead of --to).")
        Long offset;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    To to;

    @Option(names = "--reason", paramLabel = "TEXT", defaultValue = "", description = "Why, for the journal and the audit.")
    String reason;

    @Mixin
    AdminCommands.SocketOption socket = new AdminCommands.SocketOption();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        AdminRequest request;
        if (to.offset != null) {
            if (to.offset < 0) {
                err.println("kproxy rollback: --to-offset must not be negative: " + to.offset);
                err.flush();
                return AdminCommands.REFUSED;
            }
            request = new AdminRequest.PinToOffset(to.offset, reason);
        } else {
            try {
                request = new AdminRequest.PinToTime(Times.parse(to.time, Clock.systemUTC()), reason);
            } catch (HistoryException e) {
                err.println("kproxy rollback: --to: " + e.getMessage());
                err.flush();
                return AdminCommands.REFUSED;
            }
        }
        return AdminCommands.send("rollback", socket.socket, request, out, err).exit();
    }
}

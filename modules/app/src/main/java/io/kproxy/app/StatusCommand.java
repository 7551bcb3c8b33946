package io.kproxy.app;

import io.kproxy.app.admin.AdminRequest;
import io.kproxy.app.admin.AdminResponse;
import io.kproxy.config.ConfigText;
import io.kproxy.model.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kproxy status}: whether the running agent's dataplane is pinned (and to what), and its last sync. */
@Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Say what the running agent programs: the live state, or a rollback's pinned state.")
final class StatusCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print the agent's answer as JSON.")
    boolean json;

    @Mixin
    AdminCommands.SocketOption socket = new AdminCommands.SocketOption();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        AdminCommands.Result r = AdminCommands.send("status", socket.socket, new AdminRequest.Status(), new PrintWriter(new StringWriter()),
                spec.commandLine().getErr());
        if (r.exit() != AdminCommands.DONE) {
            return r.exit();
        }
        out.print(json ? ConfigText.toJson(r.response().status()) + "\n" : describe(r.response()));
        out.flush();
        return AdminCommands.DONE;
    }

    /** The status for a person. */
    static String describe(AdminResponse r) {
        Json.Obj s = r.status();
        StringBuilder sb = new StringBuilder();
        if (s.bool("pinned").orElse(false)) {
            sb.append("dataplane: PINNED to offset ").append(s.integer("toOffset").orElse(-1L)).append(s.string("toTime").map(t -> " (state at "
                    + t + ")").orElse("")).append(" by the pin at offset ").append(s.integer("pinnedAt").orElse(-1L))
                    .append(s.string("pinnedTime").map(t -> " (" + t + ")").orElse(""));
            String reason = s.string("reason").orElse("");
            sb.append(reason.isEmpty() ? "" : ": " + reason).append("\n");
            sb.append("           undo with: kproxy resume\n");
        } else {
            sb.append("dataplane: live\n");
        }
        sb.append("journal:   offsets ").append(s.integer("firstOffset").orElse(0L)).append(" to ").append(s.integer("liveOffset").orElse(-1L))
                .append(s.string("firstTime").map(t -> " (first record " + t + ")").orElse("")).append("\n");
        Json.Obj last = s.object("lastSync");
        if (last.size() > 0) {
            boolean applied = last.bool("applied").orElse(false);
            sb.append("last sync: generation ").append(last.integer("generation").orElse(0L)).append(' ')
                    .append(last.string("kind").orElse("?").toLowerCase(Locale.ROOT)).append(applied ? " applied" : " FAILED")
                    .append(", programmed offset ").append(last.integer("uptoOffset").orElse(-1L)).append(", journaled at offset ")
                    .append(last.integer("offset").orElse(-1L)).append(applied ? ", ruleset " : ": ").append(last.string("detail").orElse(""))
                    .append("\n");
        } else {
            sb.append("last sync: none yet\n");
        }
        return sb.toString();
    }
}

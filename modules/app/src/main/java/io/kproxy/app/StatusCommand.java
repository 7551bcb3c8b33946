package io.kproxy.app;

import io.kproxy.admin.AdminRequest;
import io.kproxy.config.loader.ConfigText;
import java.io.PrintWriter;
import java.io.StringWriter;
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
        out.print(json ? ConfigText.toJson(r.response().status()) + "\n" : r.response().statusText());
        out.flush();
        return AdminCommands.DONE;
    }
}

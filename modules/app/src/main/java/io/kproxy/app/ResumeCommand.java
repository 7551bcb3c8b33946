package io.kproxy.app;

import io.kproxy.admin.AdminRequest;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kproxy resume}: asks the running agent to program the live state again after a
 * rollback; answers once it is programmed. Refused (exit 2) when the dataplane is not pinned.
 */
@Command(name = "resume", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Undo kproxy rollback: program the live state again.")
final class ResumeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--reason", paramLabel = "TEXT", defaultValue = "", description = "Why, for the journal and the audit.")
    String reason;

    @Mixin
    AdminCommands.SocketOption socket = new AdminCommands.SocketOption();

    @Override
    public Integer call() {
        return AdminCommands.send("resume", socket.socket, new AdminRequest.Unpin(reason), spec.commandLine().getOut(),
                spec.commandLine().getErr()).exit();
    }
}

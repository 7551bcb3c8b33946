package io.kproxy.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kproxy journal}: looks inside a journal directory; its subcommands do the work. */
@Command(name = "journal", mixinStandardHelpOptions = true, description = "Look inside a journal directory (read only).",
        subcommands = {JournalInspectCommand.class, JournalVerifyCommand.class})
final class JournalCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }
}

package io.kproxy.app;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kproxy}: the root command; its subcommands do the work. */
@Command(name = "kproxy", mixinStandardHelpOptions = true, version = "kproxy 0.1.0",
        description = "An event-sourced kube-proxy.", subcommands = {RunCommand.class, RenderCommand.class,
        DiffCommand.class, AuditCommand.class, JournalCommand.class, RecordCommand.class, RollbackCommand.class, ResumeCommand.class,
        StatusCommand.class, DemoCommand.class, SamplesCommand.class, UiCommand.class})
final class KproxyCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }
}

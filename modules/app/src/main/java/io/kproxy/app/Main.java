package io.kproxy.app;

import picocli.CommandLine;

/**
 * The entry point of {@code ./kproxy}. Exit codes: 0 done, 1 failed, 2 refused usage or
 * configuration, 3 rendered with skipped objects; the admin commands add 69 (no agent listening)
 * and 77 (permission denied), see {@link AdminCommands}.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        Logging.defaults();
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new KproxyCommand()).setCaseInsensitiveEnumValuesAllowed(false);
    }
}

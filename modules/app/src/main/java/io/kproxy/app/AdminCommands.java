package io.kproxy.app;

import io.kproxy.admin.AdminClient;
import io.kproxy.admin.AdminRequest;
import io.kproxy.admin.AdminResponse;
import io.kproxy.config.KproxyConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * What {@code kproxy rollback}, {@code resume} and {@code status} share: the admin socket
 * option, one request to the agent, and the exit codes (docs/operations.md).
 *
 * <table>
 *   <caption>exit codes</caption>
 *   <tr><td>0</td><td>done: the agent programs what was asked</td></tr>
 *   <tr><td>1</td><td>failed: the request was journaled but the sync failed or did not finish in time; or an unreadable answer</td></tr>
 *   <tr><td>2</td><td>refused: bad usage or time, a time outside the journal, nothing to resume</td></tr>
 *   <tr><td>69</td><td>no agent listening on the socket ({@code EX_UNAVAILABLE})</td></tr>
 *   <tr><td>77</td><td>permission denied: not root ({@code EX_NOPERM})</td></tr>
 * </table>
 */
final class AdminCommands {

    static final int DONE = 0;
    static final int FAILED = 1;
    static final int REFUSED = 2;
    static final int NO_AGENT = 69;
    static final int PERMISSION_DENIED = 77;

    /** The socket option, as a picocli mixin. */
    static final class SocketOption {
        @Option(names = "--admin-socket", paramLabel = "PATH", defaultValue = KproxyConfig.DEFAULT_ADMIN_SOCKET,
                description = "The agent's admin socket (default: ${DEFAULT-VALUE}; kproxy.adminSocket of its configuration).")
        Path socket;
    }

    /** What a command prints and returns for one answer. */
    record Result(int exit, AdminResponse response) {
    }

    private AdminCommands() {
    }

    /**
     * Sends {@code request}; prints problems on {@code err} prefixed by {@code command}. Returns
     * the answer with the exit code it means, or only an exit code when there was none.
     */
    static Result send(String command, Path socket, AdminRequest request, PrintWriter out, PrintWriter err) {
        AdminResponse r;
        try {
            r = new AdminClient(socket).send(request);
        } catch (AdminClient.Unreachable e) {
            err.println("kproxy " + command + ": " + Terminal.text(e.getMessage()));
            err.flush();
            return new Result(switch (e.kind()) {
                case NO_AGENT -> NO_AGENT;
                case PERMISSION_DENIED -> PERMISSION_DENIED;
                case PROTOCOL -> FAILED;
            }, null);
        }
        int exit = switch (r.outcome()) {
            case "done" -> DONE;
            case "refused", "bad-request" -> REFUSED;
            default -> FAILED;
        };
        if (exit == DONE) {
            out.println(Terminal.text(r.message()));
            out.flush();
        } else {
            err.println("kproxy " + command + ": " + (r.code().isEmpty() ? "" : Terminal.text(r.code()) + ": ") + Terminal.text(r.message()));
            err.flush();
        }
        return new Result(exit, r);
    }
}

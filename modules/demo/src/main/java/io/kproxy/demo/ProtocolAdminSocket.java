package io.kproxy.demo;

import io.kproxy.admin.AdminClient;
import io.kproxy.admin.AdminRequest;
import io.kproxy.admin.AdminResponse;
import io.kproxy.admin.AdminServer;
import io.kproxy.engine.DataplaneControl;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The agent's admin server and the admin commands' client ({@code io.kproxy.admin}), for {@code kproxy demo}: the live demo
 * rolls back and resumes through the very protocol {@code kproxy rollback}, {@code status} and
 * {@code resume} speak. Stateless; each call blocks until the agent answered.
 */
public final class ProtocolAdminSocket implements AdminSocket {

    @Override
    public AutoCloseable serve(Path path, DataplaneControl control, Duration syncTimeout) throws IOException {
        return AdminServer.start(path, control, syncTimeout);
    }

    @Override
    public String rollback(Path path, Instant to, String reason) throws Refused {
        return send(path, new AdminRequest.PinToTime(to, reason)).message();
    }

    @Override
    public String status(Path path) throws Refused {
        return send(path, new AdminRequest.Status()).statusText();
    }

    @Override
    public String resume(Path path, String reason) throws Refused {
        return send(path, new AdminRequest.Unpin(reason)).message();
    }

    private static AdminResponse send(Path path, AdminRequest r) throws Refused {
        try {
            AdminResponse a = new AdminClient(path).send(r);
            if (!a.outcome().equals("done")) {
                throw new Refused("the agent answered " + a.outcome() + ": " + a.message());
            }
            return a;
        } catch (AdminClient.Unreachable e) {
            throw new Refused(e.getMessage());
        }
    }
}

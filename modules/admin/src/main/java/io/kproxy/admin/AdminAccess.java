package io.kproxy.admin;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.Optional;
import jdk.net.UnixDomainPrincipal;

/**
 * Who may use the admin socket: root (uid 0), and, when {@code kproxy.adminGroup} names one,
 * processes whose effective group is that group. Decided per connection from the peer's
 * credentials as the kernel reports them ({@code SO_PEERCRED}, read through
 * {@link jdk.net.ExtendedSocketOptions#SO_PEERCRED}), which the client cannot forge. The socket's
 * file mode (0600, or 0660 with the group) already keeps others out; this check holds even if the
 * file's mode or the directory's are loosened by someone else. {@code SO_PEERCRED} carries the
 * effective gid only, not supplementary groups, so a member whose primary group is another runs
 * the command with the group effective ({@code sg GROUP -c "kproxy status"}); the refusal says so.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface AdminAccess permits AdminAccess.RootOnly, AdminAccess.RootOrGroup {

    /** Only uid 0. */
    record RootOnly(UserPrincipal root) implements AdminAccess {
        public RootOnly {
            if (root == null) {
                throw new IllegalArgumentException("root is required");
            }
        }
    }

    /**
     * uid 0, or effective gid {@code group}.
     *
     * @param name  the group as configured (a name or a numeric gid), for messages
     */
    record RootOrGroup(UserPrincipal root, GroupPrincipal group, String name) implements AdminAccess {
        public RootOrGroup {
            if (root == null || group == null || name == null) {
                throw new IllegalArgumentException("no component may be null");
            }
        }
    }

    /** The decision about one peer. */
    sealed interface Decision permits Admitted, Refused {
    }

    record Admitted() implements Decision {
    }

    /** @param why what the refused peer reads */
    record Refused(String why) implements Decision {
    }

    /**
     * The rule for {@code adminGroup} ({@code ""}: root only), looked up in the system's user and
     * group database.
     *
     * @throws IOException when the group does not exist (the message says so) or the lookup fails
     */
    static AdminAccess of(String adminGroup) throws IOException {
        UserPrincipalLookupService users = FileSystems.getDefault().getUserPrincipalLookupService();
        UserPrincipal root = users.lookupPrincipalByName("0"); // uid 0 whatever its name (a number is looked up as an id)
        if (adminGroup.isEmpty()) {
            return new RootOnly(root);
        }
        try {
            return new RootOrGroup(root, users.lookupPrincipalByGroupName(adminGroup), adminGroup);
        } catch (UserPrincipalNotFoundException e) {
            throw new IOException("kproxy.adminGroup \"" + adminGroup + "\" is not a group of this system", e);
        }
    }

    /** Admits or refuses the peer whose credentials the kernel reported. */
    default Decision decide(UnixDomainPrincipal peer) {
        return switch (this) {
            case RootOnly r -> peer.user().equals(r.root()) ? new Admitted()
                    : new Refused("only root may use the admin socket (no kproxy.adminGroup is configured)");
            case RootOrGroup g -> peer.user().equals(g.root()) || peer.group().equals(g.group()) ? new Admitted()
                    : new Refused("only root or processes whose effective group is " + g.name()
                            + " may use the admin socket (try: sg " + g.name() + " -c \"kproxy ...\")");
        };
    }

    /** The group whose members are admitted, if any. */
    default Optional<GroupPrincipal> admittedGroup() {
        return switch (this) {
            case RootOnly r -> Optional.empty();
            case RootOrGroup g -> Optional.of(g.group());
        };
    }
}

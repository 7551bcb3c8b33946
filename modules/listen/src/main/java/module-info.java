/**
 * The bounded listeners the agent's endpoints sit on (docs/operations.md, "Input limits of the
 * endpoints"): a shared cap of connection {@code Slots} with request, idle and write deadlines,
 * an accept loop that backs off when {@code accept} fails, and a small HTTP/1.1 server
 * ({@code HttpListener}) that answers GET and HEAD within those limits. Used by the health-check
 * servers ({@code io.kproxy.healthcheck}) and the admin socket ({@code io.kproxy.admin}), which is
 * why it is a module of its own rather than a package of either. No policy: what a path answers
 * is the caller's.
 */
module io.kproxy.listen {
    requires io.kproxy.model;
    requires org.slf4j;

    exports io.kproxy.listen;
}

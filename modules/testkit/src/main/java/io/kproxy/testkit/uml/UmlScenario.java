package io.kproxy.testkit.uml;

/**
 * How a main class run inside User-Mode Linux ({@link Uml#java}) ends: {@code SCENARIO PASS} and
 * exit 0, or the failure's stack trace, {@code SCENARIO FAIL} and exit 1, all on standard output
 * (which the runner collects). Stateless.
 */
public final class UmlScenario {

    /** The scenario's checks; any exception or assertion error fails it. */
    public interface Body {
        void run() throws Exception;
    }

    private UmlScenario() {
    }

    /** Runs {@code body} and exits the JVM. Never returns. */
    public static void exit(Body body) {
        try {
            body.run();
            System.out.println("SCENARIO PASS");
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.out.println("SCENARIO FAIL " + t);
            System.exit(1);
        }
    }
}

package io.kproxy.backend.ipvs;

/** How a main class run inside User-Mode Linux ends: {@code SCENARIO PASS} and exit 0, or the failure and exit 1. */
final class UmlMain {

    interface Body {
        void run() throws Exception;
    }

    private UmlMain() {
    }

    static void exit(Body body) {
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

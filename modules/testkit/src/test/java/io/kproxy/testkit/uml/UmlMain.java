package io.kproxy.testkit.uml;

import java.nio.file.Files;
import java.nio.file.Path;

/** Runs inside the UML guest for {@link UmlIT}: prints what it sees and exits with the code it was given. */
public final class UmlMain {

    private UmlMain() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("java.version=" + System.getProperty("java.version"));
        System.out.println("kernel=" + Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
        System.out.println("ip_vs=" + Files.exists(Path.of("/proc/net/ip_vs")));
        System.out.println("env=" + System.getenv("KPROXY_UML_PROBE"));
        System.exit(Integer.parseInt(args[0]));
    }
}

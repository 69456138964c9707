package org.sue.sim;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.ObjectName;

/**
 * Keeps the larger generated models on HotSpot's first compiler (C1): a compiler directive, added once per JVM at run
 * time through the diagnostic command {@code Compiler.directives_add}, excludes the classes of
 * {@value #FIRST_TIER_PACKAGE} (where {@link SimCompiler} puts a model of {@value SimCompiler#FIRST_TIER_FIELDS}
 * fields or more) from the optimising compiler (C2), so their methods stay compiled by C1 while the rest of the JVM
 * (testbenches, {@link SimOps}, small models) keeps both tiers. C2 spends long on the models' large generated
 * methods and its code ran slower than C1's: on the instance C1's ran 1.8 times as fast (docs/performance.md, "The
 * simulators"). {@code -Dsue.sim.c2=true} leaves every model to both tiers (to measure the difference). A JVM
 * without the command (not HotSpot) compiles them as usual.
 */
final class JitDirectives {
    /** Set to {@code true}, the generated models are compiled by both tiers as any code. */
    static final String C2_PROPERTY = "sue.sim.c2";
    /** The package of the generated models. */
    static final String PACKAGE = "org.sue.sim.gen";
    /** The package of the models kept on the first tier. */
    static final String FIRST_TIER_PACKAGE = PACKAGE + ".c1";
    private static final String DIRECTIVE = "[{\"match\": \"" + FIRST_TIER_PACKAGE.replace('.', '/')
            + "/*.*\", \"c2\": {\"Exclude\": true}}]";
    private static boolean installed;

    private JitDirectives() {
    }

    /** Adds the directive the first time it is called in this JVM; whether the models are kept on C1. */
    static synchronized boolean install() {
        if (installed || Boolean.getBoolean(C2_PROPERTY)) {
            return installed;
        }
        try {
            Path file = Files.createTempFile("sue-sim-jit", ".json");
            try {
                Files.writeString(file, DIRECTIVE);
                ManagementFactory.getPlatformMBeanServer().invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
                        new Object[] {new String[] {file.toString()}}, new String[] {String[].class.getName()});
                installed = true;
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (Exception | LinkageError e) {
            installed = false; // not HotSpot, or no management: both tiers, as for any code
        }
        return installed;
    }
}

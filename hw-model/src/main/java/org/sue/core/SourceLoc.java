package org.sue.core;

/** The Java source line that created an IR node or statement; error messages and the Verilog back end point at it. */
public record SourceLoc(String file, int line) {
    public static final SourceLoc UNKNOWN = new SourceLoc("<unknown>", 0);

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /** The construction core itself; user code (even in this package) is everything else. */
    private static final java.util.Set<String> CORE = java.util.Set.of("Expr", "Hw", "Component", "Signal", "Port",
            "Reg", "Wire", "Mem", "MemRead", "WhenChain", "SwitchBuilder", "Design", "Const", "Op", "Names",
            "SourceLoc", "Undriven", "Layout", "Scope");

    private static boolean isCore(String className) {
        if (!className.startsWith("org.sue.core.")) {
            return false;
        }
        String simple = className.substring("org.sue.core.".length());
        int dollar = simple.indexOf('$');
        return CORE.contains(dollar < 0 ? simple : simple.substring(0, dollar));
    }

    /**
     * The first caller frame outside the core, the JDK, JUnit and classes marked {@link ConstructionHelper}: the
     * user's construction code.
     */
    public static SourceLoc here() {
        return WALKER.walk(frames -> frames
                .filter(f -> {
                    String c = f.getClassName();
                    return !isCore(c) && !c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("org.junit.")
                            && !f.getDeclaringClass().isAnnotationPresent(ConstructionHelper.class);
                })
                .findFirst()
                .map(f -> new SourceLoc(f.getFileName() == null ? f.getClassName() : f.getFileName(), f.getLineNumber()))
                .orElse(UNKNOWN));
    }

    @Override
    public String toString() {
        return file + ":" + line;
    }
}

package org.sue.core;

/** The Java source line that created an IR node or statement; error messages and the Verilog back end point at it. */
public record SourceLoc(String file, int line) {
    public static final SourceLoc UNKNOWN = new SourceLoc("<unknown>", 0);

    private static final StackWalker WALKER = StackWalker.getInstance();

    /** The first caller frame outside this package (and outside the JDK): the user's construction code. */
    public static SourceLoc here() {
        return WALKER.walk(frames -> frames
                .filter(f -> {
                    String c = f.getClassName();
                    return !c.startsWith("org.sue.core.") && !c.startsWith("java.") && !c.startsWith("jdk.");
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

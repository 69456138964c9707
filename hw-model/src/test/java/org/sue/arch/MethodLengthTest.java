package org.sue.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * No method or constructor in the hardware packages (the layers' RTL: {@code org.sue.lib}, {@code net}, {@code cmd},
 * {@code transport}, {@code link}, {@code instance}, without their {@code .model} and {@code .tb}) is longer than
 * {@value #MAX_LINES} lines: a long constructor becomes a list of named stages. Lines are counted from the
 * declaration to the closing brace; a lambda or a local class counts with the method that holds it.
 */
class MethodLengthTest {
    static final int MAX_LINES = 120;
    static final List<String> LAYERS = List.of("lib", "net", "cmd", "transport", "link", "instance");

    record Method(String where, int lines) {
    }

    @Test
    void noHardwareMethodIsLongerThanTheLimit() throws IOException {
        List<Path> sources = new ArrayList<>();
        for (String layer : LAYERS) {
            try (Stream<Path> files = Files.walk(Path.of("src/main/java/org/sue", layer))) {
                files.filter(f -> f.toString().endsWith(".java"))
                        .filter(f -> !f.toString().contains("/model/") && !f.toString().contains("/tb/"))
                        .forEach(sources::add);
            }
        }
        assertTrue(sources.size() > 50, "found the hardware sources: " + sources.size());
        List<Method> methods = new ArrayList<>();
        for (Path f : sources) {
            methods.addAll(measure(f.toString(), Files.readString(f)));
        }
        methods.sort(Comparator.comparingInt(Method::lines).reversed());
        System.out.println("longest hardware methods: " + methods.subList(0, 5));
        List<Method> tooLong = methods.stream().filter(m -> m.lines() > MAX_LINES).toList();
        assertEquals(List.of(), tooLong, "methods longer than " + MAX_LINES + " lines: split them into named stages");
    }

    @Test
    void aLongMethodIsFoundAndNamed() throws IOException {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < MAX_LINES; i++) {
            body.append("        x++;\n");
        }
        String src = "class Big {\n    int x;\n    Big() {\n" + body + "    }\n    void small() {\n        x--;\n    }\n"
                + "    class Inner {\n        void tiny() {\n        }\n    }\n}\n";
        List<Method> found = measure("Big.java", src);
        assertTrue(found.contains(new Method("Big.java:3 Big()", MAX_LINES + 2)), found.toString());
        assertTrue(found.contains(new Method("Big.java:" + (MAX_LINES + 5) + " small()", 3)), found.toString());
        assertTrue(found.contains(new Method("Big.java:" + (MAX_LINES + 9) + " tiny()", 2)), found.toString());
    }

    /** Every method and constructor of a source file with its length in lines. */
    static List<Method> measure(String name, String source) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + name.replace('\\', '/')),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        JavacTask task = (JavacTask) javac.getTask(null, null, d -> { }, List.of("-proc:none"), null, List.of(file));
        SourcePositions positions = Trees.instance(task).getSourcePositions();
        List<Method> methods = new ArrayList<>();
        for (CompilationUnitTree unit : task.parse()) {
            LineMap lines = unit.getLineMap();
            new TreePathScanner<Void, Void>() {
                private final List<String> classes = new ArrayList<>();

                @Override
                public Void visitClass(ClassTree c, Void v) {
                    classes.add(c.getSimpleName().toString());
                    try {
                        return super.visitClass(c, v);
                    } finally {
                        classes.remove(classes.size() - 1);
                    }
                }

                @Override
                public Void visitMethod(MethodTree m, Void v) {
                    if (m.getBody() != null) {
                        long start = lines.getLineNumber(positions.getStartPosition(unit, m));
                        long end = lines.getLineNumber(positions.getEndPosition(unit, m));
                        String method = m.getName().contentEquals("<init>") ? classes.get(classes.size() - 1)
                                : m.getName().toString();
                        methods.add(new Method(name + ":" + start + " " + method + "()", (int) (end - start + 1)));
                    }
                    return null; // a method's lambdas and local classes count with it
                }
            }.scan(unit, null);
        }
        return methods;
    }
}

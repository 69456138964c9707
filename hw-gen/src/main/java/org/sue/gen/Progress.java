package org.sue.gen;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;

/**
 * A progress line for long runs, rewritten in place on a terminal and absent from logs. The scripts pipe the
 * program's output through a filter, so the program never sees a terminal itself: they pass
 * {@code -Dsue.tty=/dev/tty} when their own output is one, and the line goes there.
 */
public final class Progress implements AutoCloseable {
    private final PrintStream out;
    private int width;

    private Progress(PrintStream out) {
        this.out = out;
    }

    /** Shows on the terminal named by {@code sue.tty}, or on stdout when it is a console; otherwise shows nothing. */
    public static Progress open() {
        String tty = System.getProperty("sue.tty");
        if (tty != null && !tty.isEmpty()) {
            try {
                return new Progress(new PrintStream(new FileOutputStream(tty), true));
            } catch (IOException | SecurityException e) {
                return new Progress(null);
            }
        }
        return new Progress(System.console() != null ? System.out : null);
    }

    public void show(String line) {
        if (out != null) {
            out.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
            out.flush();
            width = line.length();
        }
    }

    /** Clears the line. */
    @Override
    public void close() {
        if (out != null && width > 0) {
            out.print("\r" + " ".repeat(width) + "\r");
            out.flush();
        }
        if (out != null && out != System.out) {
            out.close();
        }
    }
}

package org.sue.core;

/** A construction or elaboration error; the message names the offending signal and the Java file:line behind it. */
public class HdlException extends RuntimeException {
    public HdlException(String message) {
        super(message);
    }

    public HdlException(String message, SourceLoc loc) {
        super(message + " (at " + loc + ")");
    }
}

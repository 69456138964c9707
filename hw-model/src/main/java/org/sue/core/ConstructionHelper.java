package org.sue.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class that builds hardware on behalf of its caller (a port bundle, a connection helper): error messages
 * and source locations then point at the caller's line, not at the helper's.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ConstructionHelper {
}

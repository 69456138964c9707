package org.sue.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a configuration record's component into the module name: {@code @Tag("w") int dataWidth} gives {@code _w512};
 * a boolean gives {@code _<tag>} when true; an enum {@code _<tag><value in lower case>}. Components without a tag
 * are still part of the module's identity, through the hash {@link ModuleName} appends (see there).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Tag {
    String value();
}

package org.sue.core;

/**
 * A configuration value that is not a record (a table, a parameter set) and says how it appears in a module name:
 * a short readable tag, and whether that tag alone identifies the value (otherwise the module name also carries a
 * hash of the whole configuration). Its {@code toString()} must describe the value completely and stably: the hash
 * is taken over it.
 */
public interface Described {
    /** A short tag for module names (letters, digits, '_'), or "" for none. */
    String moduleTag();

    /** Whether two values with the same tag are always equal. */
    default boolean tagIdentifies() {
        return false;
    }
}

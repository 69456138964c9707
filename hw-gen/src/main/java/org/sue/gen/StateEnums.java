package org.sue.gen;

import java.util.HashMap;
import java.util.Map;
import spinal.core.SpinalEnum;
import spinal.core.SpinalEnumElement;
import spinal.core.binarySequential$;

/**
 * One SpinalHDL enum per Java enum of the design's state registers ({@link org.sue.core.State}), shared by every
 * module of one emission: SpinalHDL writes a {@code localparam} per state in each module that uses it (named
 * {@code <Enum>_<STATE>}), encoded as the ordinal, as our simulator does.
 */
final class StateEnums {
    private final Map<Class<?>, SpinalEnum> enums = new HashMap<>();

    /** The enum of {@code type}, made on first use (inside SpinalHDL's elaboration). */
    SpinalEnum of(Class<? extends Enum<?>> type) {
        return enums.computeIfAbsent(type, t -> {
            SpinalEnum e = new SpinalEnum(binarySequential$.MODULE$);
            e.setName(t.getSimpleName(), false);
            for (Enum<?> c : type.getEnumConstants()) {
                e.newElement(c.name());
            }
            return e;
        });
    }

    /** The element of {@code type} at {@code ordinal}. */
    @SuppressWarnings("unchecked")
    SpinalEnumElement<SpinalEnum> element(Class<? extends Enum<?>> type, int ordinal) {
        return (SpinalEnumElement<SpinalEnum>) of(type).elements().apply(ordinal);
    }
}

package org.sue.gen;

import java.lang.reflect.Method;
import java.util.Map;
import spinal.core.SpinalConfig;
import spinal.core.SpinalConfig$;

/**
 * Builds a {@link SpinalConfig} from Java. The case class has about 60 parameters with defaults that Java cannot
 * name, so the defaults are read through its {@code apply$default$N} methods and the ones we set are replaced by
 * field name ({@code productElementName}).
 */
final class SpinalConfigs {
    private SpinalConfigs() {
    }

    static SpinalConfig create(Map<String, Object> overrides) {
        try {
            Method apply = null;
            for (Method m : SpinalConfig$.class.getMethods()) {
                if (m.getName().equals("apply") && m.getReturnType() == SpinalConfig.class
                        && (apply == null || m.getParameterCount() > apply.getParameterCount())) {
                    apply = m;
                }
            }
            if (apply == null) {
                throw new IllegalStateException("SpinalConfig.apply not found");
            }
            int n = apply.getParameterCount();
            Object[] args = new Object[n];
            for (int i = 0; i < n; i++) {
                args[i] = SpinalConfig$.class.getMethod("apply$default$" + (i + 1)).invoke(SpinalConfig$.MODULE$);
            }
            SpinalConfig defaults = (SpinalConfig) apply.invoke(SpinalConfig$.MODULE$, args);
            int matched = 0;
            for (int i = 0; i < n; i++) {
                String name = defaults.productElementName(i);
                if (overrides.containsKey(name)) {
                    args[i] = overrides.get(name);
                    matched++;
                }
            }
            if (matched != overrides.size()) {
                throw new IllegalArgumentException("unknown SpinalConfig field among " + overrides.keySet());
            }
            return (SpinalConfig) apply.invoke(SpinalConfig$.MODULE$, args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build a SpinalConfig (SpinalHDL version mismatch?)", e);
        }
    }
}

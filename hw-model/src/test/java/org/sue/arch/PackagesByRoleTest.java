package org.sue.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;
import org.sue.core.Component;

/**
 * Packages by role: {@code org.sue.<layer>} holds what becomes hardware (components and the helpers and formats they
 * are built from), {@code .model} plain-Java reference models and codecs, {@code .tb} drivers, monitors, traffic and
 * runs. Hardware never depends on the simulator, on testbench code or on reference models; reference models stay
 * plain Java.
 */
class PackagesByRoleTest {
    static final JavaClasses MAIN = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.sue");

    /** Components use neither the simulator nor testbench code. */
    static final ArchRule COMPONENTS_ARE_HARDWARE = noClasses().that().areAssignableTo(Component.class)
            .should().dependOnClassesThat().resideInAnyPackage("org.sue.sim..", "..tb..")
            .because("a component is what becomes hardware; the simulator and testbenches drive it from outside");

    /** Components live in layer packages, not among models or testbenches. */
    static final ArchRule COMPONENTS_IN_LAYERS = classes().that().areAssignableTo(Component.class)
            .and().resideOutsideOfPackage("org.sue.core")
            .should().resideOutsideOfPackages("..model..", "..tb..", "org.sue.sim..", "org.sue.vec..");

    /** The layer packages: hardware, and the helpers and formats it is built from. */
    static final String[] LAYERS = {"org.sue.core", "org.sue.lib", "org.sue.lib.crc", "org.sue.lib.stream",
        "org.sue.net", "org.sue.cmd", "org.sue.transport", "org.sue.link", "org.sue.instance", "org.sue.axi",
        "org.sue.mgmt"};

    /** Layer packages (hardware and its formats) do not reach into simulation or testbenches either. */
    static final ArchRule LAYERS_ARE_HARDWARE = noClasses().that().resideInAnyPackage(LAYERS)
            .should().dependOnClassesThat().resideInAnyPackage("org.sue.sim..", "..tb..");

    /** Layer packages use no reference model: what both need (a wire format, a CRC's definition) is the layer's. */
    static final ArchRule LAYERS_USE_NO_MODELS = layersUseNoModels(LAYERS);

    static ArchRule layersUseNoModels(String... packages) {
        return noClasses().that().resideInAnyPackage(packages).should().dependOnClassesThat()
                .resideInAPackage("..model..")
                .because("a reference model checks the hardware: the hardware built from it would check nothing");
    }

    /** Reference models are plain Java: no simulator, no testbench. */
    static final ArchRule MODELS_ARE_PLAIN_JAVA = noClasses().that().resideInAPackage("..model..")
            .should().dependOnClassesThat().resideInAnyPackage("org.sue.sim..", "..tb..");

    @Test
    void componentsAreHardware() {
        COMPONENTS_ARE_HARDWARE.check(MAIN);
        COMPONENTS_IN_LAYERS.check(MAIN);
        LAYERS_ARE_HARDWARE.check(MAIN);
        LAYERS_USE_NO_MODELS.check(MAIN);
    }

    @Test
    void referenceModelsArePlainJava() {
        MODELS_ARE_PLAIN_JAVA.check(MAIN);
    }

    /** A component that imports the simulator, as the rule must refuse it. */
    static final class LeakyComponent extends Component {
        LeakyComponent() {
            out("probe", 1).set(org.sue.sim.Simulator.class.getSimpleName().isEmpty() ? 1 : 0);
        }
    }

    @Test
    void theRulesCatchAComponentThatUsesTheSimulator() {
        JavaClasses leaky = new ClassFileImporter().importClasses(LeakyComponent.class);
        assertThrows(AssertionError.class, () -> COMPONENTS_ARE_HARDWARE.check(leaky));
    }

    /** Hardware that takes a header's offsets from the reference codec, as the rule must refuse it. */
    static final class RtlFromModel extends Component {
        RtlFromModel() {
            out("rh_bytes", 8).set(org.sue.net.model.ReliabilityHeader.decode(new byte[8], 0).encode().length);
        }
    }

    @Test
    void theRulesCatchHardwareThatUsesAReferenceModel() {
        JavaClasses leaky = new ClassFileImporter().importClasses(RtlFromModel.class);
        AssertionError e = assertThrows(AssertionError.class, () -> layersUseNoModels("org.sue.arch").check(leaky));
        assertTrue(e.getMessage().contains("ReliabilityHeader"), e.getMessage());
    }
}

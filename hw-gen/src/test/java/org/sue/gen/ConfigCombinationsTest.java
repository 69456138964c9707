package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sue.core.Design;
import org.sue.instance.SueInstance;
import org.sue.instance.SueInstance.Config.FlowControl;
import org.sue.net.HeaderFormat;

/**
 * Every documented choice starts from its own defaults: each XPU data width, flow-control mode and header format,
 * with and without Link Layer Retry, given as the only keys of a JSON file, is read and elaborated as an instance
 * (width, loop, driver and name checks). What depends on a choice (CBFC's credit size and limits, PFC's levels, the
 * per-VC FIFOs, the parts' bus widths, the largest frame) follows from it.
 */
class ConfigCombinationsTest {
    static List<String> choices() {
        List<String> files = new ArrayList<>();
        for (int width : new int[] {256, 512, 1024}) {
            for (FlowControl mode : FlowControl.values()) {
                for (boolean llr : new boolean[] {false, true}) {
                    for (HeaderFormat format : HeaderFormat.values()) {
                        files.add(file(width, format, llr, mode));
                    }
                }
            }
        }
        return files;
    }

    private static String file(int width, HeaderFormat format, boolean llr, FlowControl mode) {
        return "{\"commandPath\": {\"xpuDataWidth\": " + width + "}, \"network\": {\"format\": \"" + format + "\"},"
                + " \"linkLayer\": {\"llr\": " + llr + "}, \"flowControl\": {\"mode\": \"" + mode + "\"}}";
    }

    @ParameterizedTest
    @MethodSource("choices")
    void startsFromItsOwnDefaults(String json) throws Exception {
        SueInstance.Config c = InstanceConfigJson.fromJson(new ObjectMapper().readTree(json)).instance();
        Design.elaborate(new SueInstance(c));
        FlowControl mode = c.pfc() != null ? FlowControl.PFC : c.cbfc() != null ? FlowControl.CBFC : FlowControl.NONE;
        assertEquals(json, file(c.path().dataWidth(), c.net().format(), c.llr() != null, mode), "the chosen instance");
    }
}

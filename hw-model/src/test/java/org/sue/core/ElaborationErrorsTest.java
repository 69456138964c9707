package org.sue.core;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Every elaboration error names the offending signal and the Java line that caused it. */
class ElaborationErrorsTest {
    /** The line number of the caller, to compare with the one in the message. */
    static int line() {
        return new Throwable().getStackTrace()[1].getLineNumber();
    }

    static void assertError(Supplier<Component> build, String... fragments) {
        HdlException e = assertThrows(HdlException.class, () -> Design.elaborate(build.get()));
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "message '" + e.getMessage() + "' lacks '" + f + "'");
        }
    }

    static class Leaf extends Component {
        final Port a = in("a", 8);
        final Port y = out("y", 8);

        Leaf() {
            y.set(a);
        }
    }

    @Test
    void widthMismatchInOperator() {
        int[] at = new int[1];
        assertError(() -> new Component() {
            {
                Port a = in("a", 8);
                Port b = in("b", 9);
                out("y", 8).set(a); at[0] = line(); a.add(b);
            }
        });
        HdlException e = assertThrows(HdlException.class, () -> new Component() {
            {
                Port a = in("a", 8);
                Port b = in("b", 9);
                at[0] = line(); a.add(b);
            }
        });
        assertTrue(e.getMessage().contains("input 'Component.a'") || e.getMessage().contains(".a'"), e.getMessage());
        assertTrue(e.getMessage().contains("ElaborationErrorsTest.java:" + at[0]), e.getMessage());
        assertTrue(e.getMessage().contains("8 bits") && e.getMessage().contains("9 bits"), e.getMessage());
    }

    @Test
    void widthMismatchInAssignment() {
        int[] at = new int[1];
        HdlException e = assertThrows(HdlException.class, () -> new Component() {
            {
                Port y = out("y", 4);
                at[0] = line(); y.set(Hw.lit(5, 3));
            }
        });
        assertTrue(e.getMessage().contains("'") && e.getMessage().contains(".y'"), e.getMessage());
        assertTrue(e.getMessage().contains("ElaborationErrorsTest.java:" + at[0]), e.getMessage());
    }

    @Test
    void combinationalLoopNamesEverySignalInIt() {
        assertError(() -> new Component() {
            {
                Port a = in("a", 4);
                Wire w1 = wire("loop_first", 4);
                Wire w2 = wire("loop_second", 4);
                w1.set(w2.add(a));
                w2.set(w1.xor(1));
                out("y", 4).set(w1);
            }
        }, "combinational loop", "loop_first", "loop_second", "ElaborationErrorsTest.java:");
    }

    @Test
    void loopThroughChildPortsIsFound() {
        assertError(() -> new Component() {
            {
                Leaf leaf = child("leaf", new Leaf());
                leaf.a.set(leaf.y.add(1));
                out("y", 8).set(leaf.y);
            }
        }, "combinational loop", "leaf.a", "leaf.y");
    }

    @Test
    void registersBreakLoops() {
        Design.elaborate(new Component() {
            {
                Reg r = reg("r", 4, 0);
                r.set(r.add(1));
                out("y", 4).set(r);
            }
        });
    }

    @Test
    void undrivenOutput() {
        int[] at = new int[1];
        assertError(() -> new Component() {
            {
                in("a", 1);
                at[0] = line(); out("never_driven", 3);
            }
        }, "never_driven", "never driven");
        HdlException e = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                at[0] = line(); out("y", 3);
            }
        }));
        assertTrue(e.getMessage().contains("ElaborationErrorsTest.java:" + at[0]), e.getMessage());
    }

    @Test
    void undrivenRegister() {
        assertError(() -> new Component() {
            {
                Reg r = reg("stuck", 3, 0);
                out("y", 3).set(r);
            }
        }, "register", "stuck", "never driven");
    }

    @Test
    void wireNotAssignedOnEveryPathIsALatch() {
        assertError(() -> new Component() {
            {
                Port c = in("c", 1);
                Wire w = wire("half", 2);
                when(c, () -> w.set(1));
                out("y", 2).set(w);
            }
        }, "half", "latch");
    }

    @Test
    void unconnectedChildInput() {
        assertError(() -> new Component() {
            {
                Leaf leaf = child("leaf", new Leaf());
                out("y", 8).set(leaf.y);
            }
        }, "leaf.a", "never driven");
    }

    @Test
    void drivingAChildOutputFromOutsideIsASecondDriver() {
        HdlException e = assertThrows(HdlException.class, () -> new Component() {
            {
                Leaf leaf = child("leaf", new Leaf());
                leaf.a.set(Hw.lit(8, 1));
                leaf.y.set(Hw.lit(8, 2));
            }
        });
        assertTrue(e.getMessage().contains("leaf.y") && e.getMessage().contains("two drivers"), e.getMessage());
        assertTrue(e.getMessage().contains("ElaborationErrorsTest.java:"), e.getMessage());
    }

    @Test
    void readingASiblingsInternalsIsRejected() {
        assertError(() -> new Component() {
            {
                Leaf one = child("one", new Leaf());
                Leaf two = child("two", new Leaf());
                one.a.set(Hw.lit(8, 1));
                two.a.set(one.a.add(1)); // one.a is a child port: fine
                Wire w = wire("w", 8);
                w.set(two.y);
                out("y", 8).set(w);
                Component inner = new Component() {
                    {
                        out("z", 8).set(w); // w belongs to the enclosing component
                    }
                };
                child("inner", inner);
            }
        }, "'", ".w'", "can see only");
    }

    @Test
    void reservedAndCollidingNames() {
        assertThrows(HdlException.class, () -> new Component() {
            {
                in("output", 1);
            }
        });
        HdlException e = assertThrows(HdlException.class, () -> new Component() {
            {
                in("signal", 1);
            }
        });
        assertTrue(e.getMessage().contains("reserved"), e.getMessage());
        e = assertThrows(HdlException.class, () -> new Component() {
            {
                in("data", 1);
                out("DATA", 1);
            }
        });
        assertTrue(e.getMessage().contains("collides"), e.getMessage());
        assertThrows(HdlException.class, () -> new Component() {
            {
                in("zz_tmp", 1);
            }
        });
        assertThrows(HdlException.class, () -> new Component() {
            {
                in("a__b", 1);
            }
        });
        assertThrows(HdlException.class, () -> new Component() {
            {
                in("3x", 1);
            }
        });
        assertThrows(HdlException.class, () -> new Component() {
            {
                in("clk", 1);
            }
        });
    }

    @Test
    void constantsMustFit() {
        assertThrows(HdlException.class, () -> Hw.lit(4, 16));
        assertThrows(HdlException.class, () -> new Component() {
            {
                reg("r", 4, 16);
            }
        });
    }

    @Test
    void errorsThroughABundleHelperPointAtTheCallersLine() {
        int[] at = new int[1];
        HdlException e = assertThrows(HdlException.class, () -> new Component() {
            {
                in("s_axis_tdata", 8);
                at[0] = line(); org.sue.lib.stream.Stream.slave(this, new org.sue.lib.stream.StreamConfig(64, 4));
            }
        });
        assertTrue(e.getMessage().contains("collides"), e.getMessage());
        assertTrue(e.getMessage().contains("ElaborationErrorsTest.java:" + at[0]), e.getMessage());
    }
}

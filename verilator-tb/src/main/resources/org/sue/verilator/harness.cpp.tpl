// Generated golden-vector replay harness for @TOP@ (see VerilatorReplay.java).
// Usage: replay BODY.vec [--vcd WAVE.vcd] [--seed N]
// --seed N: every register and memory starts with random values (Verilator --x-initial unique), seeded with N;
// without it they start at zero. Outputs recorded as "x" (don't-care) are not compared.
#include "V@TOP@.h"
#include "verilated.h"
#include "verilated_vcd_c.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static const int NPORTS = @NPORTS@;
static const int MAXWORDS = @MAXWORDS@;
static const int WIDTHS[NPORTS] = {@WIDTHS@};
static uint32_t cur[NPORTS][MAXWORDS];
static uint8_t dc[NPORTS]; // don't-care this cycle
static long long mismatches = 0;

static void hex(const uint32_t* w, int n, char* out) {
    int top = n - 1;
    while (top > 0 && w[top] == 0) top--;
    int len = sprintf(out, "%x", w[top]);
    for (int k = top - 1; k >= 0; k--) len += sprintf(out + len, "%08x", w[k]);
}

static void report(long long cycle, const char* port, const uint32_t* exp, const uint32_t* act, int n) {
    if (mismatches++ < 10) {
        static char e[4096], a[4096];
        hex(exp, n, e);
        hex(act, n, a);
        printf("MISMATCH cycle %lld port %s: expected %s, got %s\n", cycle, port, e, a);
    }
}

// Parses one hex field [s, end) into cur[port]; false on a bad digit or a value wider than the port.
static bool parse(const char* s, const char* end, int port) {
    uint32_t* w = cur[port];
    int words = (WIDTHS[port] + 31) / 32;
    memset(w, 0, sizeof(uint32_t) * words);
    int nibble = 0;
    for (const char* p = end - 1; p >= s; p--, nibble++) {
        int d;
        char c = *p;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return false;
        if (d == 0) continue;
        int bit = nibble * 4;
        if (bit >= WIDTHS[port]) return false;
        w[bit / 32] |= (uint32_t) d << (bit % 32);
    }
    return true;
}

int main(int argc, char** argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s BODY [--vcd FILE] [--seed N]\n", argv[0]); return 2; }
    const char* vcd = nullptr;
    long seed = -1;
    for (int a = 2; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--vcd")) vcd = argv[a + 1];
        else if (!strcmp(argv[a], "--seed")) seed = atol(argv[a + 1]);
        else { fprintf(stderr, "unknown option %s\n", argv[a]); return 2; }
    }
    VerilatedContext* ctx = new VerilatedContext;
    ctx->randReset(seed < 0 ? 0 : 2);
    if (seed >= 0) ctx->randSeed((int) seed);
    V@TOP@* top = new V@TOP@{ctx};
    VerilatedVcdC* tfp = nullptr;
    if (vcd) {
        ctx->traceEverOn(true);
        tfp = new VerilatedVcdC;
        top->trace(tfp, 99);
        tfp->open(vcd);
    }
    FILE* f = fopen(argv[1], "r");
    if (!f) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
    char* line = nullptr;
    size_t cap = 0;
    ssize_t len;
    long long cycle = 0;
    long long lineNo = 0;
    top->@CLOCK@ = 0;
@RESET_INIT@    top->eval();
    // Cycles are parsed a chunk at a time into memory, and only the simulation of each chunk is timed, so the
    // figure is Verilator's speed, not the text parser's.
    static const int CHUNK = 4096;
    static uint32_t chunk[CHUNK][NPORTS][MAXWORDS];
    static uint8_t dchunk[CHUNK][NPORTS];
    long long simNanos = 0;
    auto tStart = std::chrono::steady_clock::now();
    bool more = true;
    while (more) {
        int n = 0;
        while (n < CHUNK) {
            len = getline(&line, &cap, f);
            if (len <= 0) { more = false; break; }
            lineNo++;
            if (line[0] == '#' || line[0] == '\n') continue;
            const char* s = line;
            const char* end = line + len;
            if (end > s && end[-1] == '\n') end--;
            for (int i = 0; i < NPORTS; i++) {
                const char* e = (const char*) memchr(s, ' ', end - s);
                if (!e) e = end;
                if (e - s == 1 && *s == 'x') {
                    dc[i] = 1;
                } else if (!(e - s == 1 && *s == '.')) {
                    if (!parse(s, e, i)) {
                        fprintf(stderr, "ERROR line %lld: bad field %d\n", lineNo, i);
                        return 2;
                    }
                    dc[i] = 0;
                }
                s = e + 1;
            }
            memcpy(chunk[n], cur, sizeof(cur));
            memcpy(dchunk[n], dc, sizeof(dc));
            n++;
        }
        auto t0 = std::chrono::steady_clock::now();
        for (int c = 0; c < n; c++) {
            memcpy(cur, chunk[c], sizeof(cur));
            memcpy(dc, dchunk[c], sizeof(dc));
@APPLY@
            top->eval();
            if (tfp) tfp->dump((uint64_t) (cycle * 10));
@COMPARE@
            top->@CLOCK@ = 1;
            top->eval();
            if (tfp) tfp->dump((uint64_t) (cycle * 10 + 5));
            top->@CLOCK@ = 0;
            top->eval();
            cycle++;
        }
        simNanos += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    }
    long long nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - tStart).count();
    if (tfp) tfp->close();
    printf("RESULT %lld %lld %lld %lld\n", cycle, mismatches, nanos, simNanos);
    top->final();
    delete top;
    delete ctx;
    return 0;
}

// C entry points around the Verilated engine, called from Rust (src/lib.rs).
// The clock loop lives here so a long search runs without crossing the FFI
// boundary once per cycle.
#include <cstdint>

#include "Vtop.h"
#include "verilated.h"

namespace {
struct Sim {
    VerilatedContext context;
    Vtop* top;
};

void tick(Vtop* top) {
    top->clock = 1;
    top->eval();
    top->clock = 0;
    top->eval();
}
}  // namespace

extern "C" {

void* ksim_new() {
    Sim* sim = new Sim;
    sim->top = new Vtop{&sim->context};
    sim->top->clock = 0;
    sim->top->eval();
    return sim;
}

void ksim_free(void* handle) {
    Sim* sim = static_cast<Sim*>(handle);
    sim->top->final();
    delete sim->top;
    delete sim;
}

void ksim_start(void* handle, uint32_t width, uint32_t height, uint32_t start_square, int closed, int warnsdorff,
                int count_all, uint64_t limit, const uint32_t* prefix, uint32_t prefix_length) {
    Vtop* top = static_cast<Sim*>(handle)->top;
    top->width = width;
    top->height = height;
    top->start_square = start_square;
    top->closed = closed;
    top->warnsdorff = warnsdorff;
    top->count_all = count_all;
    top->limit = limit;
    top->prefix_length = prefix_length;
    top->prefix_valid = 0;
    top->tour_ready = 0;
    top->start = 1;
    tick(top);
    top->start = 0;
    top->eval();
    // Hand over the prefix squares; the engine takes one per clock once
    // its setup is done.
    for (uint32_t i = 0; i < prefix_length && !top->done;) {
        top->prefix_square = prefix[i];
        top->prefix_valid = 1;
        top->eval();
        bool taken = top->prefix_ready;
        tick(top);
        if (taken) ++i;
    }
    top->prefix_valid = 0;
    top->eval();
}

// Clocks the engine until it is done or offers a tour square, at most
// max_clocks times; returns the clocks run.
uint64_t ksim_run(void* handle, uint64_t max_clocks) {
    Vtop* top = static_cast<Sim*>(handle)->top;
    top->tour_ready = 0;
    uint64_t clocks = 0;
    while (clocks < max_clocks && !top->done && !top->tour_valid) {
        tick(top);
        ++clocks;
    }
    return clocks;
}

// Accepts the tour square on offer (one clock with ready high).
uint32_t ksim_take(void* handle, int* last) {
    Vtop* top = static_cast<Sim*>(handle)->top;
    uint32_t square = top->tour_square;
    *last = top->tour_last;
    top->tour_ready = 1;
    tick(top);
    top->tour_ready = 0;
    top->eval();
    return square;
}

void ksim_cancel(void* handle) {
    Vtop* top = static_cast<Sim*>(handle)->top;
    top->cancel = 1;
    tick(top);
    top->cancel = 0;
    top->eval();
}

int ksim_done(void* handle) { return static_cast<Sim*>(handle)->top->done; }
int ksim_tour_valid(void* handle) { return static_cast<Sim*>(handle)->top->tour_valid; }
uint32_t ksim_status(void* handle) { return static_cast<Sim*>(handle)->top->status; }
uint64_t ksim_tours(void* handle) { return static_cast<Sim*>(handle)->top->tours; }
uint64_t ksim_nodes(void* handle) { return static_cast<Sim*>(handle)->top->nodes; }
uint64_t ksim_cycles(void* handle) { return static_cast<Sim*>(handle)->top->cycles; }
}

// C entry points around the Verilated accelerator, called from Rust
// (src/lib.rs). The host talks to it at the UART pins: bytes written are
// sent bit by bit on uart_rx, and uart_tx is sampled back into bytes, the
// way a USB-serial bridge would. The clock loop lives here so a long search
// runs without crossing the FFI boundary once per cycle.
#include <cstddef>
#include <cstdint>
#include <deque>

#include "Vtop.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

namespace {

// Line levels of one UART character, least significant first: start bit,
// 8 data bits, stop bit.
uint16_t character(uint8_t byte, bool good_stop_bit) {
    return static_cast<uint16_t>(byte) << 1 | (good_stop_bit ? 1u << 9 : 0u);
}

struct Board {
    VerilatedContext context;
    Vtop* top = nullptr;
#if VM_TRACE
    // A waveform of every signal, once opened (models built with tracing).
    VerilatedFstC* trace = nullptr;
#endif
    uint32_t clocks_per_bit = 0;
    uint64_t cycles = 0;

    // Host to device: characters waiting, and the one on the line.
    std::deque<uint16_t> waiting;
    uint16_t sending = 0;
    uint32_t bits_left = 0;
    uint32_t send_timer = 0;

    // Device to host: a receiver sampling mid-bit.
    enum { IDLE, START, DATA, STOP } state = IDLE;
    uint32_t sample_timer = 0;
    uint32_t bit = 0;
    uint8_t shift = 0;
    uint64_t line_high_clocks = 0;
    uint64_t framing_errors = 0;

    bool rx_level() {
        if (bits_left == 0 && !waiting.empty()) {
            sending = waiting.front();
            waiting.pop_front();
            bits_left = 10;
            send_timer = clocks_per_bit;
        }
        return bits_left == 0 || (sending & 1);
    }

    void advance_sender() {
        if (bits_left != 0 && --send_timer == 0) {
            sending >>= 1;
            --bits_left;
            send_timer = clocks_per_bit;
        }
    }

    // Samples uart_tx after a clock; returns true with *out set when a byte
    // is complete.
    bool sample(uint8_t* out) {
        bool level = top->uart_tx;
        line_high_clocks = level ? line_high_clocks + 1 : 0;
        switch (state) {
            case IDLE:
                if (!level) {
                    state = START;
                    sample_timer = clocks_per_bit / 2;
                }
                return false;
            case START:
                if (--sample_timer == 0) {
                    if (level) {
                        state = IDLE;
                    } else {
                        state = DATA;
                        bit = 0;
                        shift = 0;
                        sample_timer = clocks_per_bit;
                    }
                }
                return false;
            case DATA:
                if (--sample_timer == 0) {
                    shift |= static_cast<uint8_t>(level) << bit;
                    sample_timer = clocks_per_bit;
                    if (++bit == 8) state = STOP;
                }
                return false;
            case STOP:
                if (--sample_timer == 0) {
                    state = IDLE;
                    if (level) {
                        *out = shift;
                        return true;
                    }
                    ++framing_errors;
                }
                return false;
        }
        return false;
    }

    // Half clocks are the waveform's time steps.
    void dump(uint64_t time) {
#if VM_TRACE
        if (trace) trace->dump(time);
#else
        (void)time;
#endif
    }

    bool tick(uint8_t* out) {
        top->uart_rx = rx_level();
        top->clock = 1;
        top->eval();
        dump(2 * cycles + 1);
        top->clock = 0;
        top->eval();
        dump(2 * cycles + 2);
        ++cycles;
        advance_sender();
        return sample(out);
    }
};

}  // namespace

extern "C" {

void* ksb_new(uint32_t clocks_per_bit) {
    Board* board = new Board;
#if VM_TRACE
    board->context.traceEverOn(true);
#endif
    board->clocks_per_bit = clocks_per_bit;
    board->top = new Vtop{&board->context};
    board->top->uart_rx = 1;
    board->top->clock = 0;
    board->top->eval();
    return board;
}

void ksb_free(void* handle) {
    Board* board = static_cast<Board*>(handle);
#if VM_TRACE
    if (board->trace) {
        board->trace->close();
        delete board->trace;
    }
#endif
    board->top->final();
    delete board->top;
    delete board;
}

// Starts writing an FST waveform of every signal to `path`: 1 when it
// does, 0 when the model was built without tracing, -1 when the file
// cannot be written.
int ksb_trace_open(void* handle, const char* path) {
#if VM_TRACE
    Board* board = static_cast<Board*>(handle);
    if (board->trace) return 1;
    board->trace = new VerilatedFstC;
    board->top->trace(board->trace, 99);
    board->trace->open(path);
    return board->trace->isOpen() ? 1 : -1;
#else
    (void)handle;
    (void)path;
    return 0;
#endif
}

// Queues bytes for the device's UART receiver.
void ksb_write(void* handle, const uint8_t* bytes, size_t length) {
    Board* board = static_cast<Board*>(handle);
    for (size_t i = 0; i < length; ++i) board->waiting.push_back(character(bytes[i], true));
}

// Queues a character whose stop bit is low (a framing error).
void ksb_write_bad_stop_bit(void* handle, uint8_t byte) {
    static_cast<Board*>(handle)->waiting.push_back(character(byte, false));
}

// Runs up to max_cycles clocks, stopping early once `capacity` bytes have
// come out of the device. Returns the bytes read; *cycles_run says how many
// clocks ran.
size_t ksb_run(void* handle, uint64_t max_cycles, uint8_t* out, size_t capacity, uint64_t* cycles_run) {
    Board* board = static_cast<Board*>(handle);
    size_t length = 0;
    uint64_t clocks = 0;
    while (clocks < max_cycles && length < capacity) {
        if (board->tick(out + length)) ++length;
        ++clocks;
    }
    *cycles_run = clocks;
    return length;
}

// Nothing on the way in either direction, no search running, and the
// device's line idle for two characters.
int ksb_quiet(void* handle) {
    Board* board = static_cast<Board*>(handle);
    return board->waiting.empty() && board->bits_left == 0 && board->state == Board::IDLE && !board->top->led_busy &&
           board->line_high_clocks >= 20ull * board->clocks_per_bit;
}

uint64_t ksb_cycles(void* handle) { return static_cast<Board*>(handle)->cycles; }
int ksb_led_busy(void* handle) { return static_cast<Board*>(handle)->top->led_busy; }
int ksb_led_found(void* handle) { return static_cast<Board*>(handle)->top->led_found; }
uint64_t ksb_framing_errors(void* handle) { return static_cast<Board*>(handle)->framing_errors; }
}

// Models of the cells in nextpnr's routed ECP5 netlist, for `knights
// check-build`. yosys's models (ecp5/cells_sim.v) do not describe them as
// nextpnr configures the part; each here follows what nextpnr's bitstream
// writer sets (ecp5/bitstream.cc), its packer (ecp5/pack.cc) or the paths
// its timing model gives (ecp5/arch.cc).

// A slice flip-flop. SD picks its data: "1" the LUT beside it (DI), "0" the
// general routing (M); nextpnr's bitstream writer defaults it to "0".
// Configuration loads every flip-flop with its REGSET value.
module TRELLIS_FF(input CLK, LSR, CE, DI, M, output reg Q);
    parameter GSR = "ENABLED";
    parameter [127:0] CEMUX = "1";
    parameter CLKMUX = "CLK";
    parameter LSRMUX = "LSR";
    parameter SRMODE = "LSR_OVER_CE";
    parameter REGSET = "RESET";
    parameter [127:0] LSRMODE = "LSR";
    parameter SD = "0";

    wire enable = CEMUX == "1" ? 1'b1 : CEMUX == "0" ? 1'b0 : CEMUX == "INV" ? ~CE : CE;
    wire set_reset = LSRMUX == "INV" ? ~LSR : LSR;
    wire clock = CLKMUX == "INV" ? ~CLK : CLK;
    wire data = SD == "1" ? DI : M;
    wire reset_value = LSRMODE == "PRLD" ? M : REGSET == "SET";

    initial Q = REGSET == "SET";

    generate
        if (SRMODE == "ASYNC") begin : asynchronous
            always @(posedge clock, posedge set_reset)
                if (set_reset) Q <= reset_value;
                else if (enable) Q <= data;
        end else begin : synchronous
            always @(posedge clock)
                if (set_reset) Q <= reset_value;
                else if (enable) Q <= data;
        end
    endgenerate
endmodule

// A slice's LUT: logic (F = INITVAL at {D, C, B, A}), one bit of a carry
// chain (CCU2; INJECT1 defaults to YES, as in nextpnr's bitstream writer),
// or one bit of distributed RAM (DPRAM, its write clock inverted by
// WCKMUX = INV), and its wide-function mux (OFX: the check sets IS_Z1 on a
// slice's second LUT, whose mux is the L6MUX). A RAM bit is read at
// address {A, C, B, D} (nextpnr wires the read address so and permutes
// INITVAL to match) and written at {WAD3..WAD0}.
module TRELLIS_COMB(input A, B, C, D, M, FCI, F1, FXA, FXB, WD, WAD0, WAD1, WAD2, WAD3, WRE, WCK,
                    output F, FCO, OFX);
    parameter MODE = "LOGIC";
    parameter INITVAL = 16'h0;
    parameter CCU2_INJECT1 = "YES";
    parameter WREMUX = "WRE";
    parameter WCKMUX = "WCK";
    parameter IS_Z1 = 0;

    wire [15:0] lut = INITVAL;
    wire lut4 = lut[{D, C, B, A}];
    generate
        if (MODE == "LOGIC") begin : logic_mode
            assign F = lut4;
            assign FCO = 1'b0;
        end else if (MODE == "CCU2") begin : carry_mode
            wire lut2 = lut[{B, A}];
            wire inject = CCU2_INJECT1 == "YES";
            assign F = lut4 ^ (inject ? 1'b0 : FCI);
            assign FCO = (~lut4 & (inject ? 1'b0 : lut2)) | (lut4 & FCI);
        end else if (MODE == "DPRAM") begin : ram_mode
            reg [15:0] ram;
            integer i;
            initial
                for (i = 0; i < 16; i = i + 1)
                    ram[{i[0], i[2], i[1], i[3]}] = lut[i];
            wire write_clock = WCKMUX == "INV" ? ~WCK : WCK;
            wire write_enable = WREMUX == "INV" ? ~WRE : WRE;
            always @(posedge write_clock)
                if (write_enable) ram[{WAD3, WAD2, WAD1, WAD0}] <= WD;
            assign F = ram[{A, C, B, D}];
            assign FCO = 1'b0;
        end else begin : unsupported_mode
            assign F = 1'b0;
            assign FCO = 1'b0;
        end
        if (IS_Z1 == 1) begin : wide_mux_7
            assign OFX = M ? FXB : FXA;
        end else begin : wide_mux_5
            assign OFX = M ? F1 : F;
        end
    endgenerate
endmodule

// A block RAM, in the configurations yosys maps to and nextpnr keeps: true
// dual port at 1, 2, 4, 9 or 18 bits a port (at 18, byte enables on
// ADx1..0), or pseudo dual port at 36 (written by port A: data {DIB, DIA},
// byte enables ADA3..0; read by port B onto {DOB, DOA}). The check ties the
// pins nextpnr left unconnected as the part does (`tie_block_ram_pins`), so
// an INV left here is on a connected pin. Reads are registered (NOREG; OUTREG
// adds a register enabled by OCE). A writing port's output follows
// WRITEMODE; a word read while the other port writes it reads old.
module DP16KD(
  input DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
  input ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input CEA, OCEA, CLKA, WEA, RSTA,
  input CSA2, CSA1, CSA0,
  output DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
  input ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input CEB, OCEB, CLKB, WEB, RSTB,
  input CSB2, CSB1, CSB0,
  output DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
    parameter DATA_WIDTH_A = 18;
    parameter DATA_WIDTH_B = 18;
    parameter REGMODE_A = "NOREG";
    parameter REGMODE_B = "NOREG";
    parameter RESETMODE = "SYNC";
    parameter ASYNC_RESET_RELEASE = "SYNC";
    parameter CSDECODE_A = "0b000";
    parameter CSDECODE_B = "0b000";
    parameter WRITEMODE_A = "NORMAL";
    parameter WRITEMODE_B = "NORMAL";
    parameter CLKAMUX = "CLKA";
    parameter CLKBMUX = "CLKB";
    parameter CEAMUX = "CEA";
    parameter CEBMUX = "CEB";
    parameter OCEAMUX = "OCEA";
    parameter OCEBMUX = "OCEB";
    parameter WEAMUX = "WEA";
    parameter WEBMUX = "WEB";
    parameter RSTAMUX = "RSTA";
    parameter RSTBMUX = "RSTB";
    parameter GSR = "ENABLED";
    parameter INIT_DATA = "STATIC";
    parameter WID = 0;

    localparam PSEUDO = DATA_WIDTH_A == 36;
    localparam WIDE = DATA_WIDTH_A >= 9;
    localparam BYTES_A = DATA_WIDTH_A == 36 ? 4 : DATA_WIDTH_A == 18 ? 2 : 1;
    localparam BYTES_B = DATA_WIDTH_B == 36 ? 4 : DATA_WIDTH_B == 18 ? 2 : 1;
    localparam BITS_A = WIDE ? 1 : DATA_WIDTH_A;
    localparam BITS_B = WIDE ? 1 : DATA_WIDTH_B;

    wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
    wire [17:0] dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
    wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0};
    wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0};

    wire clka = CLKAMUX == "INV" ? ~CLKA : CLKA;
    wire clkb = CLKBMUX == "INV" ? ~CLKB : CLKB;
    wire ocea = OCEAMUX == "INV" ? ~OCEA : OCEA;
    wire oceb = OCEBMUX == "INV" ? ~OCEB : OCEB;
    wire wea = WEAMUX == "INV" ? ~WEA : WEA;
    wire web = !PSEUDO && (WEBMUX == "INV" ? ~WEB : WEB);
    wire rsta = RSTAMUX == "INV" ? ~RSTA : RSTA;
    wire rstb = RSTBMUX == "INV" ? ~RSTB : RSTB;
    // CSDECODE "0bXYZ": the chip-select value that selects the RAM.
    wire [2:0] decode_a = {CSDECODE_A[23:16] == "1", CSDECODE_A[15:8] == "1", CSDECODE_A[7:0] == "1"};
    wire [2:0] decode_b = {CSDECODE_B[23:16] == "1", CSDECODE_B[15:8] == "1", CSDECODE_B[7:0] == "1"};
    wire enabled_a = (CEAMUX == "INV" ? ~CEA : CEA) && {CSA2, CSA1, CSA0} == decode_a;
    wire enabled_b = (CEBMUX == "INV" ? ~CEB : CEB) && {CSB2, CSB1, CSB0} == decode_b;

    // 2,048 bytes of 9 bits (widths 9, 18, 36), or 16K bits (1, 2, 4).
    reg [8:0] bytes [0:2047];
    reg bits [0:16383];
    integer i;
    initial begin
        for (i = 0; i < 2048; i = i + 1) bytes[i] = 0;
        for (i = 0; i < 16384; i = i + 1) bits[i] = 0;
    end

    // Each port's word: its first byte (or bit), and what is there.
    wire [10:0] byte_a = DATA_WIDTH_A == 36 ? {ada[13:5], 2'b00} : DATA_WIDTH_A == 18 ? {ada[13:4], 1'b0} : ada[13:3];
    wire [10:0] byte_b = DATA_WIDTH_B == 36 ? {adb[13:5], 2'b00} : DATA_WIDTH_B == 18 ? {adb[13:4], 1'b0} : adb[13:3];
    wire [13:0] bit_a = DATA_WIDTH_A == 4 ? {ada[13:2], 2'b00} : DATA_WIDTH_A == 2 ? {ada[13:1], 1'b0} : ada;
    wire [13:0] bit_b = DATA_WIDTH_B == 4 ? {adb[13:2], 2'b00} : DATA_WIDTH_B == 2 ? {adb[13:1], 1'b0} : adb;
    wire [35:0] word_a = WIDE ? {bytes[byte_a + 3], bytes[byte_a + 2], bytes[byte_a + 1], bytes[byte_a]}
                              : {32'b0, bits[bit_a + 3], bits[bit_a + 2], bits[bit_a + 1], bits[bit_a]};
    wire [35:0] word_b = WIDE ? {bytes[byte_b + 3], bytes[byte_b + 2], bytes[byte_b + 1], bytes[byte_b]}
                              : {32'b0, bits[bit_b + 3], bits[bit_b + 2], bits[bit_b + 1], bits[bit_b]};
    wire [35:0] write_a = PSEUDO ? {dib, dia} : {18'b0, dia};
    wire [3:0] enables_a = DATA_WIDTH_A == 36 ? ada[3:0] : DATA_WIDTH_A == 18 ? {2'b00, ada[1:0]} : 4'b0001;
    wire [3:0] enables_b = DATA_WIDTH_B == 18 ? {2'b00, adb[1:0]} : 4'b0001;

    always @(posedge clka)
        if (enabled_a && wea) begin
            for (i = 0; i < BYTES_A; i = i + 1)
                if (WIDE && enables_a[i]) bytes[byte_a + i] <= write_a[i * 9 +: 9];
            for (i = 0; i < BITS_A; i = i + 1)
                if (!WIDE) bits[bit_a + i] <= dia[i];
        end
    always @(posedge clkb)
        if (enabled_b && web) begin
            for (i = 0; i < BYTES_B; i = i + 1)
                if (WIDE && enables_b[i]) bytes[byte_b + i] <= dib[i * 9 +: 9];
            for (i = 0; i < BITS_B; i = i + 1)
                if (!WIDE) bits[bit_b + i] <= dib[i];
        end

    // What each port's read register takes at its clock.
    wire [17:0] next_a = wea && WRITEMODE_A == "WRITETHROUGH" ? dia : word_a[17:0];
    wire [35:0] next_b = web && WRITEMODE_B == "WRITETHROUGH" ? {18'b0, dib} : word_b;
    wire read_a = enabled_a && (!wea || WRITEMODE_A != "NORMAL");
    wire read_b = enabled_b && (!web || WRITEMODE_B != "NORMAL");
    reg [17:0] out_a = 0, out_a_reg = 0;
    reg [35:0] out_b = 0, out_b_reg = 0;
    generate
        if (RESETMODE == "ASYNC") begin : asynchronous_reset
            always @(posedge clka, posedge rsta)
                if (rsta) out_a <= 0; else if (read_a) out_a <= next_a;
            always @(posedge clkb, posedge rstb)
                if (rstb) out_b <= 0; else if (read_b) out_b <= next_b;
        end else begin : synchronous_reset
            always @(posedge clka)
                if (rsta) out_a <= 0; else if (read_a) out_a <= next_a;
            always @(posedge clkb)
                if (rstb) out_b <= 0; else if (read_b) out_b <= next_b;
        end
    endgenerate
    always @(posedge clka) if (ocea) out_a_reg <= out_a;
    always @(posedge clkb) if (oceb) out_b_reg <= out_b;
    wire [17:0] pins_a = REGMODE_A == "OUTREG" ? out_a_reg : out_a;
    wire [35:0] pins_b = REGMODE_B == "OUTREG" ? out_b_reg : out_b;
    // At 36 bits port B's read comes out on both ports' pins.
    assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = DATA_WIDTH_B == 36 ? pins_b[17:0] : pins_a;
    assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = DATA_WIDTH_B == 36 ? pins_b[35:18] : pins_b[17:0];
endmodule

// The write port of a slice's distributed RAM: it routes the slice's LUT
// inputs to the RAM's write address and data (the pairs nextpnr's timing
// model gives).
module TRELLIS_RAMW(input A0, B0, C0, D0, A1, B1, C1, D1,
                    output WDO0, WDO1, WDO2, WDO3, WADO0, WADO1, WADO2, WADO3);
    assign WADO0 = D0;
    assign WADO1 = B0;
    assign WADO2 = C0;
    assign WADO3 = A0;
    assign WDO0 = C1;
    assign WDO1 = A1;
    assign WDO2 = D1;
    assign WDO3 = B1;
endmodule

// A pad, as an input or an output (knights uses no tristate pin). The check
// gives each TRELLIS_IO the type of its direction (DIR), so that the
// simulator knows which way its pin is driven.
module TRELLIS_IO_INPUT(input B, input I, input T, output O);
    parameter DIR = "INPUT";
    parameter DATAMUX_ODDR = "PADDO";
    parameter DATAMUX_MDDR = "PADDO";
    assign O = B;
endmodule

module TRELLIS_IO_OUTPUT(output B, input I, input T, output O);
    parameter DIR = "OUTPUT";
    parameter DATAMUX_ODDR = "PADDO";
    parameter DATAMUX_MDDR = "PADDO";
    assign B = I;
    assign O = I;
endmodule

// A global clock buffer (its enable is left unconnected: always on).
module DCCA(input CLKI, input CE, output CLKO);
    assign CLKO = CLKI;
endmodule

// The PLL. The simulator's clock is the PLL's output: `knights check-build`
// derives that frequency from the dividers and runs the UART at it, so the
// model passes the clock through.
module EHXPLLL(input CLKI, CLKFB, PHASESEL1, PHASESEL0, PHASEDIR, PHASESTEP, PHASELOADREG,
               STDBY, PLLWAKESYNC, RST, ENCLKOP, ENCLKOS, ENCLKOS2, ENCLKOS3,
               output CLKOP, CLKOS, CLKOS2, CLKOS3, LOCK, INTLOCK, REFCLK, CLKINTFB);
    parameter CLKI_DIV = 1;
    parameter CLKFB_DIV = 1;
    parameter CLKOP_DIV = 8;
    parameter CLKOS_DIV = 8;
    parameter CLKOS2_DIV = 8;
    parameter CLKOS3_DIV = 8;
    parameter CLKOP_ENABLE = "ENABLED";
    parameter CLKOS_ENABLE = "DISABLED";
    parameter CLKOS2_ENABLE = "DISABLED";
    parameter CLKOS3_ENABLE = "DISABLED";
    parameter CLKOP_CPHASE = 0;
    parameter CLKOS_CPHASE = 0;
    parameter CLKOS2_CPHASE = 0;
    parameter CLKOS3_CPHASE = 0;
    parameter CLKOP_FPHASE = 0;
    parameter CLKOS_FPHASE = 0;
    parameter CLKOS2_FPHASE = 0;
    parameter CLKOS3_FPHASE = 0;
    parameter FEEDBK_PATH = "CLKOP";
    parameter CLKOP_TRIM_POL = "RISING";
    parameter CLKOP_TRIM_DELAY = 0;
    parameter CLKOS_TRIM_POL = "RISING";
    parameter CLKOS_TRIM_DELAY = 0;
    parameter OUTDIVIDER_MUXA = "DIVA";
    parameter OUTDIVIDER_MUXB = "DIVB";
    parameter OUTDIVIDER_MUXC = "DIVC";
    parameter OUTDIVIDER_MUXD = "DIVD";
    parameter PLL_LOCK_MODE = 0;
    parameter PLL_LOCK_DELAY = 200;
    parameter STDBY_ENABLE = "DISABLED";
    parameter REFIN_RESET = "DISABLED";
    parameter SYNC_ENABLE = "DISABLED";
    parameter INT_LOCK_STICKY = "ENABLED";
    parameter DPHASE_SOURCE = "DISABLED";
    parameter PLLRST_ENA = "DISABLED";
    parameter INTFB_WAKE = "DISABLED";
    assign CLKOP = CLKI;
    assign CLKOS = 1'b0;
    assign CLKOS2 = 1'b0;
    assign CLKOS3 = 1'b0;
    assign LOCK = 1'b1;
    assign INTLOCK = 1'b1;
    assign REFCLK = CLKI;
    assign CLKINTFB = 1'b0;
endmodule

// The multiplier (MULT18X18D) as yosys maps a product in knights's builds:
// combinational, with no register settings (the check refuses a netlist
// that has any), P = A x B, each signed when SIGNEDA or SIGNEDB says. The
// check ties the data pins nextpnr left constant (`<PIN>MUX` "0" or "1").
// Ports C, SOURCEA/B, the clocks, enables, resets and the shift inputs are
// for its registers and its cascade, unused here.
module MULT18X18D(input A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17,
                  input B0, B1, B2, B3, B4, B5, B6, B7, B8, B9, B10, B11, B12, B13, B14, B15, B16, B17,
                  input C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17,
                  input SIGNEDA, SIGNEDB, SOURCEA, SOURCEB,
                  input CLK0, CLK1, CLK2, CLK3, CE0, CE1, CE2, CE3, RST0, RST1, RST2, RST3,
                  input SRIA0, SRIA1, SRIA2, SRIA3, SRIA4, SRIA5, SRIA6, SRIA7, SRIA8, SRIA9, SRIA10, SRIA11, SRIA12, SRIA13, SRIA14, SRIA15, SRIA16, SRIA17,
                  input SRIB0, SRIB1, SRIB2, SRIB3, SRIB4, SRIB5, SRIB6, SRIB7, SRIB8, SRIB9, SRIB10, SRIB11, SRIB12, SRIB13, SRIB14, SRIB15, SRIB16, SRIB17,
                  output P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23, P24, P25, P26, P27, P28, P29, P30, P31, P32, P33, P34, P35);
    wire [17:0] a = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0};
    wire [17:0] b = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
    wire signed [18:0] a_wide = {SIGNEDA & a[17], a};
    wire signed [18:0] b_wide = {SIGNEDB & b[17], b};
    wire signed [37:0] product = a_wide * b_wide;
    assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} = product[35:0];
endmodule

// The iCE40 PLLs as knights builds use them (SB_PLL40_CORE, or SB_PLL40_PAD
// on a board whose clock pin is the PLL's pad; simple feedback), for
// `knights check-build`: yosys's models of them are black boxes. The
// simulator's clock is the PLL's output, whose frequency the check derives
// from DIVR, DIVF and DIVQ, so the model passes the clock through.
module SB_PLL40_CORE(input REFERENCECLK, output PLLOUTCORE, output PLLOUTGLOBAL,
                     input EXTFEEDBACK, input [7:0] DYNAMICDELAY, output LOCK, input BYPASS,
                     input RESETB, input LATCHINPUTVALUE, output SDO, input SDI, input SCLK);
    parameter FEEDBACK_PATH = "SIMPLE";
    parameter DELAY_ADJUSTMENT_MODE_FEEDBACK = "FIXED";
    parameter DELAY_ADJUSTMENT_MODE_RELATIVE = "FIXED";
    parameter SHIFTREG_DIV_MODE = 1'b0;
    parameter FDA_FEEDBACK = 4'b0000;
    parameter FDA_RELATIVE = 4'b0000;
    parameter PLLOUT_SELECT = "GENCLK";
    parameter DIVR = 4'b0000;
    parameter DIVF = 7'b0000000;
    parameter DIVQ = 3'b000;
    parameter FILTER_RANGE = 3'b000;
    parameter ENABLE_ICEGATE = 1'b0;
    parameter TEST_MODE = 1'b0;
    parameter EXTERNAL_DIVIDE_FACTOR = 1;
    assign PLLOUTCORE = REFERENCECLK;
    assign PLLOUTGLOBAL = REFERENCECLK;
    assign LOCK = 1'b1;
    assign SDO = 1'b0;
endmodule

module SB_PLL40_PAD(input PACKAGEPIN, output PLLOUTCORE, output PLLOUTGLOBAL,
                    input EXTFEEDBACK, input [7:0] DYNAMICDELAY, output LOCK, input BYPASS,
                    input RESETB, input LATCHINPUTVALUE, output SDO, input SDI, input SCLK);
    parameter FEEDBACK_PATH = "SIMPLE";
    parameter DELAY_ADJUSTMENT_MODE_FEEDBACK = "FIXED";
    parameter DELAY_ADJUSTMENT_MODE_RELATIVE = "FIXED";
    parameter SHIFTREG_DIV_MODE = 1'b0;
    parameter FDA_FEEDBACK = 4'b0000;
    parameter FDA_RELATIVE = 4'b0000;
    parameter PLLOUT_SELECT = "GENCLK";
    parameter DIVR = 4'b0000;
    parameter DIVF = 7'b0000000;
    parameter DIVQ = 3'b000;
    parameter FILTER_RANGE = 3'b000;
    parameter ENABLE_ICEGATE = 1'b0;
    parameter TEST_MODE = 1'b0;
    parameter EXTERNAL_DIVIDE_FACTOR = 1;
    assign PLLOUTCORE = PACKAGEPIN;
    assign PLLOUTGLOBAL = PACKAGEPIN;
    assign LOCK = 1'b1;
    assign SDO = 1'b0;
endmodule

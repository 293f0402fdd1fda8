//! The build cache: `knights build` takes a build whose inputs are
//! unchanged as it is, and builds again after a change of an option, of the
//! bitstream, of a tool's version, or a build stopped half way.

mod common;

use std::path::Path;

use common::{icebreaker_build, Quiet};
use knights::fpga::bitstream::{self, BuildOptions, Phase, Watch};
use knights::fpga::boards;

/// A build whose inputs have not changed is taken as it is, without running
/// a tool; a changed option, a touched bitstream or a build stopped half way
/// (its report is removed first and written last) builds again.
#[test]
fn an_unchanged_build_is_not_made_again() {
    let board = boards::find("icebreaker").unwrap();
    let copy = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("target").join("build-cache-test");
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(icebreaker_build()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
        }
    }
    let mut options = BuildOptions::for_board(&board);
    options.out_dir = copy.clone();
    if bitstream::why_rebuild(&board, &options).unwrap().is_some() {
        // A build made before builds recorded their inputs: made once more.
        bitstream::build(&board, &options, &mut Quiet).unwrap();
    }
    assert_eq!(bitstream::why_rebuild(&board, &options).unwrap(), None);
    let mut said = Vec::new();
    let started = std::time::Instant::now();
    let report = bitstream::build(&board, &options, &mut Said(&mut said)).unwrap();
    assert!(started.elapsed().as_secs() < 20, "no tool ran: {:?}", started.elapsed());
    assert!(said.iter().any(|line| line.starts_with("up to date")), "{said:?}");
    assert_eq!(report.inputs_sha256, knights::fpga::build_report::BuildReport::read(&copy).unwrap().inputs_sha256);

    let bitstream_path = copy.join(&report.bitstream);
    let original = std::fs::read(&bitstream_path).unwrap();
    let mut touched = original.clone();
    touched[100] ^= 1;
    std::fs::write(&bitstream_path, touched).unwrap();
    assert_eq!(bitstream::why_rebuild(&board, &options).unwrap(), Some("its bitstream is missing or changed"));
    std::fs::write(&bitstream_path, original).unwrap();
    // Another seed, clock or number of engines: built again.
    let changed = "its design, constraints, options or tools changed";
    let changes: [&dyn Fn(&mut BuildOptions); 3] =
        [&|o| o.build.seed = Some(o.build.seed.unwrap_or(0) + 1), &|o| o.build.design.clock_hz = 18_000_000, &|o| {
            o.build.design.engines = 2
        }];
    for change in changes {
        let mut changed_options = BuildOptions { out_dir: copy.clone(), ..BuildOptions::for_board(&board) };
        change(&mut changed_options);
        assert_eq!(bitstream::why_rebuild(&board, &changed_options).unwrap(), Some(changed));
    }
    // Another version of a tool (a fake yosys first on PATH): built again.
    // (This file's one test: nothing else here runs a tool meanwhile.)
    let fake_tools = copy.join("fake-tools");
    std::fs::create_dir_all(&fake_tools).unwrap();
    let fake_yosys = fake_tools.join("yosys");
    std::fs::write(&fake_yosys, "#!/bin/sh\necho 'Yosys 0.1 (fake)'\n").unwrap();
    std::fs::set_permissions(&fake_yosys, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let with_fake = std::env::join_paths(std::iter::once(fake_tools).chain(std::env::split_paths(&path))).unwrap();
    std::env::set_var("PATH", with_fake);
    let with_fake_yosys = bitstream::why_rebuild(&board, &options).unwrap();
    std::env::set_var("PATH", &path);
    assert_eq!(with_fake_yosys, Some(changed));
    assert_eq!(bitstream::why_rebuild(&board, &options).unwrap(), None);
    // A build stopped before it finished leaves no report to take.
    std::fs::remove_file(copy.join("build.json")).unwrap();
    assert_eq!(bitstream::why_rebuild(&board, &options).unwrap(), Some("no build report there"));
}

/// A watch that keeps what the build says.
struct Said<'a>(&'a mut Vec<String>);

impl Watch for Said<'_> {
    fn say(&mut self, line: &str) {
        self.0.push(line.to_string());
    }
    fn status(&mut self, _: Phase, _: &str) {}
}

//! SOLVE's arguments as the N-Queens solvers read them, one block for all
//! the solvers of an accelerator (the QUEENS command, see
//! `docs/protocol.md`): N twice (the board is square), the first rank's
//! files from and to (exclusive), and the flags: COUNT, and CONSTELLATIONS
//! (with COUNT, N >= 4, in a build that has the generator). The refusal is judged from the arguments as they are; the
//! board's masks are computed and held from `latch` (a search's start) on.

use knights_protocol::{error, flag};
use rust_hdl::prelude::*;

use super::ranks::top_slot;
use crate::platform::ARGUMENT_BITS;

#[derive(LogicBlock)]
pub struct QueensArguments<const NB: usize> {
    pub clock: Signal<In, Clock>,
    pub arguments: Signal<In, Bits<ARGUMENT_BITS>>,
    /// The ERROR code that refuses the arguments, 0 if none does.
    pub refusal: Signal<Out, Bits<8>>,
    /// Holds the settings below from the arguments now.
    pub latch: Signal<In, bool>,
    /// N, the board's files as a mask, the files the first rank may take,
    /// the last rank's slot (see `ranks`), and count mode.
    pub n: Signal<Out, Bits<8>>,
    pub full: Signal<Out, Bits<NB>>,
    pub first_files: Signal<Out, Bits<NB>>,
    pub last_slot: Signal<Out, Bits<NB>>,
    pub count_all: Signal<Out, bool>,
    /// Count from constellations (the last slot is then the rank below the
    /// last: see `ranks`).
    pub edges_on: Signal<Out, bool>,

    edges_built: Constant<bool>,
    edges_flag: Constant<Bits<8>>,
    edges_requested: Signal<Local, bool>,
    held_edges: DFF<bool>,
    max_n: Constant<Bits<8>>,
    top_slot: Constant<Bits<NB>>,
    count_flag: Constant<Bits<8>>,
    board_too_large: Constant<Bits<8>>,
    bad_argument: Constant<Bits<8>>,
    size: Signal<Local, Bits<8>>,
    from: Signal<Local, Bits<8>>,
    to: Signal<Local, Bits<8>>,
    flags: Signal<Local, Bits<8>>,
    held_n: DFF<Bits<8>>,
    held_full: DFF<Bits<NB>>,
    held_first: DFF<Bits<NB>>,
    held_last: DFF<Bits<NB>>,
    held_count: DFF<bool>,
}

impl<const NB: usize> Default for QueensArguments<NB> {
    fn default() -> Self {
        Self::new(false)
    }
}

impl<const NB: usize> QueensArguments<NB> {
    /// For a build whose walker makes constellation jobs when
    /// `constellations`.
    pub fn new(constellations: bool) -> Self {
        let constant = |value: u64| Constant::new(value.into());
        QueensArguments {
            edges_on: Default::default(),
            edges_built: Constant::new(constellations),
            edges_flag: constant(u64::from(flag::CONSTELLATIONS)),
            edges_requested: Default::default(),
            held_edges: Default::default(),
            clock: Default::default(),
            arguments: Default::default(),
            refusal: Default::default(),
            latch: Default::default(),
            n: Default::default(),
            full: Default::default(),
            first_files: Default::default(),
            last_slot: Default::default(),
            count_all: Default::default(),
            max_n: constant(NB as u64),
            top_slot: top_slot(),
            count_flag: constant(u64::from(flag::COUNT)),
            board_too_large: constant(error::BOARD_TOO_LARGE.into()),
            bad_argument: constant(error::BAD_ARGUMENT.into()),
            size: Default::default(),
            from: Default::default(),
            to: Default::default(),
            flags: Default::default(),
            held_n: Default::default(),
            held_full: Default::default(),
            held_first: Default::default(),
            held_last: Default::default(),
            held_count: Default::default(),
        }
    }
}

impl<const NB: usize> Logic for QueensArguments<NB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held_n, held_full, held_first, held_last, held_count, held_edges);
        self.size.next = self.arguments.val().get_bits::<8>(0);
        self.from.next = self.arguments.val().get_bits::<8>(16);
        self.to.next = self.arguments.val().get_bits::<8>(24);
        self.flags.next = self.arguments.val().get_bits::<8>(32);
        // (Constant false where the generator is not built, so the solvers'
        // constellation logic is synthesised away.)
        self.edges_requested.next = self.edges_built.val() & (self.flags.val() & self.edges_flag.val()).any();
        if self.latch.val() {
            self.held_n.d.next = self.size.val();
            // (1 << N) - 1 wraps round to every file when N is the build's.
            self.held_full.d.next = (bits::<NB>(1) << self.size.val()) - 1;
            self.held_first.d.next = ((bits::<NB>(1) << self.to.val()) - 1) & !((bits::<NB>(1) << self.from.val()) - 1);
            self.held_last.d.next = self.top_slot.val() >> (self.size.val() - 1);
            self.held_count.d.next = (self.flags.val() & self.count_flag.val()).any();
            self.held_edges.d.next = self.edges_requested.val();
            if self.edges_requested.val() {
                self.held_last.d.next = self.top_slot.val() >> (self.size.val() - 2);
            }
        }
        self.n.next = self.held_n.q.val();
        self.full.next = self.held_full.q.val();
        self.first_files.next = self.held_first.q.val() & self.held_full.q.val();
        self.last_slot.next = self.held_last.q.val();
        self.count_all.next = self.held_count.q.val();
        self.edges_on.next = self.held_edges.q.val();

        self.refusal.next = 0.into();
        if self.size.val() > self.max_n.val() {
            self.refusal.next = self.board_too_large.val();
        }
        if (self.size.val() == 0)
            | (self.arguments.val().get_bits::<8>(8) != self.size.val())
            | (self.from.val() >= self.to.val())
            | (self.to.val() > self.size.val())
            | ((self.flags.val() & !(self.count_flag.val() | self.edges_flag.val())).any())
            | ((self.flags.val() & self.edges_flag.val()).any()
                & (!self.edges_built.val() | !(self.flags.val() & self.count_flag.val()).any() | (self.size.val() < 4)))
        {
            self.refusal.next = self.bad_argument.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal, and N, the full mask, the first rank's files and the
    /// last slot held from a latch.
    fn judge(bytes: [u8; 5]) -> (u64, [u64; 4], bool) {
        let (refusal, masks, count, edges) = judge_with(false, bytes);
        assert!(!edges);
        (refusal, masks, count)
    }

    /// As `judge`, in a build with constellations or not; and whether it
    /// counts from them.
    fn judge_with(constellations: bool, bytes: [u8; 5]) -> (u64, [u64; 4], bool, bool) {
        type Arguments = QueensArguments<8>;
        let mut uut = Arguments::new(constellations);
        uut.connect_all();
        let packed = bytes.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let held = std::sync::Arc::new(std::sync::Mutex::new((0, [0; 4], false, false)));
        let out = held.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Arguments>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Arguments>| {
            let mut x = sim.init()?;
            x.arguments.next = packed.into();
            x.latch.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.latch.next = false;
            let refusal = x.refusal.val().to_u64();
            // Held: other arguments now change nothing but the refusal.
            x.arguments.next = 0.into();
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.refusal.val(), u64::from(error::BAD_ARGUMENT), x);
            let masks = [x.n.val(), x.full.val(), x.first_files.val(), x.last_slot.val()].map(|v| v.to_u64());
            *out.lock().unwrap() = (refusal, masks, x.count_all.val(), x.edges_on.val());
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
        let result = *held.lock().unwrap();
        result
    }

    #[test]
    fn reads_the_board_and_refuses_what_it_cannot_run() {
        let count = flag::COUNT;
        assert_eq!(judge([6, 6, 0, 3, count]), (0, [6, 0x3F, 0b111, 0b100], true));
        assert_eq!(judge([8, 8, 2, 8, 0]), (0, [8, 0xFF, 0xFC, 0b1], false));
        assert_eq!(judge([1, 1, 0, 1, 0]), (0, [1, 1, 1, 0x80], false));
        let bad = u64::from(error::BAD_ARGUMENT);
        assert_eq!(judge([9, 9, 0, 9, 0]).0, u64::from(error::BOARD_TOO_LARGE));
        assert_eq!(judge([0, 0, 0, 1, 0]).0, bad);
        assert_eq!(judge([6, 5, 0, 6, 0]).0, bad);
        assert_eq!(judge([6, 6, 3, 3, 0]).0, bad);
        assert_eq!(judge([6, 6, 0, 7, 0]).0, bad);
        assert_eq!(judge([6, 6, 0, 6, flag::PRUNE]).0, bad);
        // Constellations: not in this build.
        assert_eq!(judge([6, 6, 0, 6, count | flag::CONSTELLATIONS]).0, bad);
    }

    #[test]
    fn constellations_stop_below_the_last_rank_and_need_a_count() {
        let edges = flag::COUNT | flag::CONSTELLATIONS;
        assert_eq!(judge_with(true, [6, 6, 0, 6, edges]), (0, [6, 0x3F, 0x3F, 0b1000], true, true));
        assert_eq!(judge_with(true, [6, 6, 0, 6, flag::COUNT]), (0, [6, 0x3F, 0x3F, 0b100], true, false));
        let bad = u64::from(error::BAD_ARGUMENT);
        assert_eq!(judge_with(true, [6, 6, 0, 6, flag::CONSTELLATIONS]).0, bad);
        assert_eq!(judge_with(true, [3, 3, 0, 3, edges]).0, bad);
    }
}

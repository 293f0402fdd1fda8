//! SOLVE's arguments as the knight's-tour engine reads them: the board, the
//! start square and the flags, and why it cannot run them (see
//! `docs/protocol.md`). The board's size and the refusal are read from the
//! arguments as they are; the search's settings are held from `latch` (its
//! start) on, so the arguments may change while it runs.

use knights_protocol::{error, flag};
use rust_hdl::prelude::*;

use crate::platform::ARGUMENT_BITS;
use crate::tours::common::geometry::Geometry;

#[derive(LogicBlock)]
pub struct KnightArguments<const LB: usize> {
    pub clock: Signal<In, Clock>,
    /// Width, height, start file, start rank and flags, a byte each.
    pub arguments: Signal<In, Bits<ARGUMENT_BITS>>,
    pub width: Signal<Out, Bits<8>>,
    pub height: Signal<Out, Bits<8>>,
    /// The ERROR code that refuses the arguments, 0 if none does.
    pub refusal: Signal<Out, Bits<8>>,
    /// Holds the settings below from the arguments now (a search starts).
    pub latch: Signal<In, bool>,
    /// The start square as `rank * max_width + file`, and the flags.
    pub start_square: Signal<Out, Bits<LB>>,
    pub closed: Signal<Out, bool>,
    pub warnsdorff: Signal<Out, bool>,
    pub count_all: Signal<Out, bool>,
    pub prune: Signal<Out, bool>,

    max_width: Constant<Bits<8>>,
    max_height: Constant<Bits<8>>,
    row_stride: Constant<Bits<16>>,
    // Flags past the highest one defined are a bad argument.
    flag_limit: Constant<Bits<8>>,
    has_warnsdorff: Constant<bool>,
    board_too_large: Constant<Bits<8>>,
    start_off_board: Constant<Bits<8>>,
    bad_argument: Constant<Bits<8>>,
    file: Signal<Local, Bits<8>>,
    rank: Signal<Local, Bits<8>>,
    flags: Signal<Local, Bits<8>>,
    held_square: DFF<Bits<LB>>,
    held_flags: DFF<Bits<8>>,
}

impl<const LB: usize> KnightArguments<LB> {
    /// For an engine of `geometry`, with or without Warnsdorff's order.
    pub fn new(geometry: Geometry, warnsdorff: bool) -> Self {
        let constant = |value: u64| Constant::new(value.into());
        KnightArguments {
            clock: Default::default(),
            arguments: Default::default(),
            width: Default::default(),
            height: Default::default(),
            start_square: Default::default(),
            closed: Default::default(),
            warnsdorff: Default::default(),
            count_all: Default::default(),
            prune: Default::default(),
            refusal: Default::default(),
            latch: Default::default(),
            max_width: constant(geometry.max_width as u64),
            max_height: constant(geometry.max_height as u64),
            row_stride: Constant::new((geometry.max_width as u64).into()),
            flag_limit: constant(u64::from(flag::CLOSED | flag::WARNSDORFF | flag::COUNT | flag::PRUNE)),
            has_warnsdorff: Constant::new(warnsdorff),
            board_too_large: constant(error::BOARD_TOO_LARGE.into()),
            start_off_board: constant(error::START_OFF_BOARD.into()),
            bad_argument: constant(error::BAD_ARGUMENT.into()),
            file: Default::default(),
            rank: Default::default(),
            flags: Default::default(),
            held_square: Default::default(),
            held_flags: Default::default(),
        }
    }
}

impl<const LB: usize> Logic for KnightArguments<LB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held_square, held_flags);
        self.width.next = self.arguments.val().get_bits::<8>(0);
        self.height.next = self.arguments.val().get_bits::<8>(8);
        self.file.next = self.arguments.val().get_bits::<8>(16);
        self.rank.next = self.arguments.val().get_bits::<8>(24);
        self.flags.next = self.arguments.val().get_bits::<8>(32);
        if self.latch.val() {
            self.held_square.d.next = bit_cast::<LB, 32>(bit_cast::<16, 8>(self.rank.val()) * self.row_stride.val())
                + bit_cast::<LB, 8>(self.file.val());
            self.held_flags.d.next = self.flags.val();
        }
        self.start_square.next = self.held_square.q.val();
        self.closed.next = self.held_flags.q.val().get_bit(0);
        self.warnsdorff.next = self.held_flags.q.val().get_bit(1);
        self.count_all.next = self.held_flags.q.val().get_bit(2);
        self.prune.next = self.held_flags.q.val().get_bit(3);

        self.refusal.next = 0.into();
        if (self.file.val() >= self.width.val()) | (self.rank.val() >= self.height.val()) {
            self.refusal.next = self.start_off_board.val();
        }
        if (self.width.val() > self.max_width.val()) | (self.height.val() > self.max_height.val()) {
            self.refusal.next = self.board_too_large.val();
        }
        if (self.width.val() == 0)
            | (self.height.val() == 0)
            | (self.flags.val() > self.flag_limit.val())
            | (self.flags.val().get_bit(1) & !self.has_warnsdorff.val())
        {
            self.refusal.next = self.bad_argument.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal, and the start square and flags held from a latch.
    fn judge(warnsdorff: bool, bytes: [u8; 5]) -> (u64, u64, u64) {
        type Arguments = KnightArguments<5>;
        let mut uut = Arguments::new(Geometry::new(5, 4), warnsdorff);
        uut.connect_all();
        let packed = bytes.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let held = std::sync::Arc::new(std::sync::Mutex::new((0, 0, 0)));
        let out = held.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Arguments>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Arguments>| {
            let mut x = sim.init()?;
            x.arguments.next = packed.into();
            x.latch.next = true;
            wait_clock_cycle!(sim, clock, x);
            // Held: other arguments now change nothing but the refusal.
            x.latch.next = false;
            x.arguments.next = 0.into();
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.refusal.val(), u64::from(error::BAD_ARGUMENT), x);
            let flags = [x.closed.val(), x.warnsdorff.val(), x.count_all.val(), x.prune.val()];
            let flags = flags.iter().enumerate().map(|(bit, &on)| u64::from(on) << bit).sum();
            x.arguments.next = packed.into();
            wait_clock_cycle!(sim, clock, x);
            *out.lock().unwrap() = (x.refusal.val().to_u64(), x.start_square.val().to_u64(), flags);
            sim.done(x)
        });
        sim.run(Box::new(uut), 1_000).unwrap();
        let result = *held.lock().unwrap();
        result
    }

    #[test]
    fn reads_the_start_square_and_refuses_what_the_build_cannot_run() {
        let (closed_warnsdorff, count) = (flag::CLOSED | flag::WARNSDORFF, flag::COUNT);
        assert_eq!(judge(true, [5, 4, 2, 3, closed_warnsdorff]), (0, 17, u64::from(closed_warnsdorff)));
        assert_eq!(judge(true, [5, 4, 4, 1, flag::COUNT | flag::PRUNE]), (0, 9, u64::from(flag::COUNT | flag::PRUNE)));
        assert_eq!(judge(true, [3, 3, 3, 0, count]).0, u64::from(error::START_OFF_BOARD));
        assert_eq!(judge(true, [6, 4, 0, 0, count]).0, u64::from(error::BOARD_TOO_LARGE));
        assert_eq!(judge(true, [0, 4, 0, 0, count]).0, u64::from(error::BAD_ARGUMENT));
        assert_eq!(judge(true, [5, 4, 0, 0, 16]).0, u64::from(error::BAD_ARGUMENT));
        assert_eq!(judge(false, [5, 4, 0, 0, flag::WARNSDORFF]).0, u64::from(error::BAD_ARGUMENT));
        assert_eq!(judge(false, [5, 4, 0, 0, flag::PRUNE]).0, 0);
    }
}

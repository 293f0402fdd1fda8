//! A job's path: the moves (canonical index, 3 bits) that entered each level
//! above the job level, bit-sliced: bit `b` of the move from level `k` is bit
//! `16 * b + k`, so that a level's move is read, two paths compared, and a
//! level's move written with a few wide gates instead of a mux per level.
//!
//! Three uses: a worker replays a job's path (the move at a level,
//! [`PathRead`]); a worker taking a new job rejoins its stack at the deepest
//! level the new path shares with the last one; the walker keeps the path it
//! walks (the move that entered a level, written into its slot,
//! [`PathWrite`]). [`JobPath`] is the three for the engines that step in one
//! clock; the interleaved engine reads and writes in different stages.

use rust_hdl::prelude::*;

use knights_protocol::MAX_SPLIT_LEVEL;

pub use crate::platform::JOB_PATH_BITS;
// A path is three bits a level, the slices 16 bits wide in the logic below.
const _: () = assert!(MAX_SPLIT_LEVEL == 16 && JOB_PATH_BITS == 3 * MAX_SPLIT_LEVEL as usize);

/// A move's number from its one-hot bit (0 for none): the form a path
/// keeps a move in.
#[derive(LogicBlock, Default)]
pub struct MoveIndex {
    pub move_bit: Signal<In, Bits<8>>,
    pub index: Signal<Out, Bits<3>>,
}

impl Logic for MoveIndex {
    #[hdl_gen]
    fn update(&mut self) {
        self.index.next = bits::<3>(0)
            .replace_bit(0, (self.move_bit.val() & 0xAA).any())
            .replace_bit(1, (self.move_bit.val() & 0xCC).any())
            .replace_bit(2, (self.move_bit.val() & 0xF0).any());
    }
}

/// The move a path takes at a level (levels 16 and up: none, 0).
#[derive(LogicBlock, Default)]
pub struct PathRead<const LB: usize> {
    pub path: Signal<In, Bits<JOB_PATH_BITS>>,
    pub level: Signal<In, Bits<LB>>,
    pub move_index: Signal<Out, Bits<3>>,

    replay_slice: [Signal<Local, Bits<16>>; 3],
}

impl<const LB: usize> Logic for PathRead<LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.replay_slice[0].next = self.path.val().get_bits::<16>(0) >> self.level.val();
        self.replay_slice[1].next = self.path.val().get_bits::<16>(16) >> self.level.val();
        self.replay_slice[2].next = self.path.val().get_bits::<16>(32) >> self.level.val();
        self.move_index.next = bits::<3>(0)
            .replace_bit(0, self.replay_slice[0].val().get_bit(0))
            .replace_bit(1, self.replay_slice[1].val().get_bit(0))
            .replace_bit(2, self.replay_slice[2].val().get_bit(0));
    }
}

/// A path with a move written at a level: a bit set or cleared in each
/// slice.
#[derive(LogicBlock)]
pub struct PathWrite {
    pub path: Signal<In, Bits<JOB_PATH_BITS>>,
    /// The level, one-hot (0 writes nothing), and its move's number.
    pub level_bit: Signal<In, Bits<16>>,
    pub move_index: Signal<In, Bits<3>>,
    pub written: Signal<Out, Bits<JOB_PATH_BITS>>,

    slice_shift: Constant<Bits<8>>,
    two_slices: Constant<Bits<8>>,
    slices: [Signal<Local, Bits<16>>; 3],
}

impl Default for PathWrite {
    fn default() -> Self {
        PathWrite {
            path: Default::default(),
            level_bit: Default::default(),
            move_index: Default::default(),
            written: Default::default(),
            slice_shift: Constant::new(16.into()),
            two_slices: Constant::new(32.into()),
            slices: Default::default(),
        }
    }
}

impl Logic for PathWrite {
    #[hdl_gen]
    fn update(&mut self) {
        self.slices[0].next = self.path.val().get_bits::<16>(0) & !self.level_bit.val();
        if self.move_index.val().get_bit(0) {
            self.slices[0].next = self.path.val().get_bits::<16>(0) | self.level_bit.val();
        }
        self.slices[1].next = self.path.val().get_bits::<16>(16) & !self.level_bit.val();
        if self.move_index.val().get_bit(1) {
            self.slices[1].next = self.path.val().get_bits::<16>(16) | self.level_bit.val();
        }
        self.slices[2].next = self.path.val().get_bits::<16>(32) & !self.level_bit.val();
        if self.move_index.val().get_bit(2) {
            self.slices[2].next = self.path.val().get_bits::<16>(32) | self.level_bit.val();
        }
        self.written.next = bit_cast::<JOB_PATH_BITS, 16>(self.slices[0].val())
            | (bit_cast::<JOB_PATH_BITS, 16>(self.slices[1].val()) << self.slice_shift.val())
            | (bit_cast::<JOB_PATH_BITS, 16>(self.slices[2].val()) << self.two_slices.val());
    }
}

/// Path logic for an engine whose levels take `LB` bits.
#[derive(LogicBlock)]
pub struct JobPath<const LB: usize> {
    /// The path kept (the walker's, or the job's being replayed).
    pub path: Signal<In, Bits<JOB_PATH_BITS>>,
    /// Replay: the move `path` takes at `replay_level` (one-hot).
    pub replay_level: Signal<In, Bits<LB>>,
    pub replay_move: Signal<Out, Bits<8>>,
    /// Rejoin: the first level where `offered` departs from `path` (the
    /// levels above it are shared; 0 also for equal paths).
    pub offered: Signal<In, Bits<JOB_PATH_BITS>>,
    pub rejoin_level: Signal<Out, Bits<LB>>,
    /// Walking: `path` with the move entered (one-hot) in the slot of the
    /// level stepped from, a descent's or a pop's (both decoded before the
    /// step picks one: `popping` comes late). Levels 16 and up have no slot.
    pub entered_move: Signal<In, Bits<8>>,
    pub descent_level: Signal<In, Bits<LB>>,
    pub pop_level: Signal<In, Bits<LB>>,
    pub popping: Signal<In, bool>,
    pub entered_path: Signal<Out, Bits<JOB_PATH_BITS>>,

    // The levels whose number has bit b set.
    slot_bit: [Constant<Bits<16>>; 4],

    replay: PathRead<LB>,
    entered_index: MoveIndex,
    entered: PathWrite,
    difference: Signal<Local, Bits<JOB_PATH_BITS>>,
    slots_same: Signal<Local, Bits<16>>,
    first_differing: Signal<Local, Bits<16>>,
}

impl<const LB: usize> Default for JobPath<LB> {
    fn default() -> Self {
        assert!(LB >= 4, "levels up to 16 need four bits");
        JobPath {
            path: Default::default(),
            replay_level: Default::default(),
            replay_move: Default::default(),
            offered: Default::default(),
            rejoin_level: Default::default(),
            entered_move: Default::default(),
            descent_level: Default::default(),
            pop_level: Default::default(),
            popping: Default::default(),
            entered_path: Default::default(),
            slot_bit: std::array::from_fn(|b| {
                Constant::new(((0..16u64).filter(|k| k >> b & 1 == 1).map(|k| 1 << k).sum::<u64>()).into())
            }),
            replay: Default::default(),
            entered_index: Default::default(),
            entered: Default::default(),
            difference: Default::default(),
            slots_same: Default::default(),
            first_differing: Default::default(),
        }
    }
}

impl<const LB: usize> Logic for JobPath<LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.replay.path.next = self.path.val();
        self.replay.level.next = self.replay_level.val();
        self.replay_move.next = bits::<8>(1) << self.replay.move_index.val();

        self.difference.next = self.path.val() ^ self.offered.val();
        self.slots_same.next = !(self.difference.val().get_bits::<16>(0)
            | self.difference.val().get_bits::<16>(16)
            | self.difference.val().get_bits::<16>(32));
        self.first_differing.next = (self.slots_same.val() + 1) & !self.slots_same.val();
        self.rejoin_level.next = bits::<LB>(0)
            .replace_bit(0, (self.first_differing.val() & self.slot_bit[0].val()).any())
            .replace_bit(1, (self.first_differing.val() & self.slot_bit[1].val()).any())
            .replace_bit(2, (self.first_differing.val() & self.slot_bit[2].val()).any())
            .replace_bit(3, (self.first_differing.val() & self.slot_bit[3].val()).any());

        self.entered_index.move_bit.next = self.entered_move.val();
        self.entered.path.next = self.path.val();
        self.entered.move_index.next = self.entered_index.index.val();
        self.entered.level_bit.next = bits::<16>(1) << self.descent_level.val();
        if self.popping.val() {
            self.entered.level_bit.next = bits::<16>(1) << self.pop_level.val();
        }
        self.entered_path.next = self.entered.written.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_protocol::codec::MovePath;

    /// A path of moves (level 0 first) in the bit-sliced form, as the host
    /// sends it.
    fn encode_path(moves: &[u8]) -> Bits<JOB_PATH_BITS> {
        MovePath::new(moves).expect("16 moves at most").sliced().into()
    }

    fn moves(seed: u64, length: usize) -> Vec<u8> {
        (0..length).map(|k| ((seed >> (3 * k)) & 7) as u8).collect()
    }

    #[test]
    fn replays_rejoins_and_walks_a_path() {
        let mut uut = JobPath::<6>::default();
        uut.connect_all();
        let mut seed = 0xda94_2042_e4dd_58b5u64;
        for _ in 0..300 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let path = moves(seed, 16);
            let mut offered = path.clone();
            let departs = (seed >> 50) as usize % 16;
            offered[departs] = (offered[departs] + 1 + (seed >> 60) as u8 % 7) % 8;
            let level = (seed >> 56) as usize % 16;
            let entered = (seed >> 44) as u8 % 8;
            let popping = seed >> 63 == 1;
            let other_level = (level + 5) % 20;
            uut.path.next = encode_path(&path);
            uut.offered.next = encode_path(&offered);
            uut.replay_level.next = (level as u64).into();
            uut.entered_move.next = (1u64 << entered).into();
            let (descent, pop) = if popping { (other_level, level) } else { (level, other_level) };
            uut.descent_level.next = (descent as u64).into();
            uut.pop_level.next = (pop as u64).into();
            uut.popping.next = popping;
            assert!(simulate(&mut uut, 100), "settles");
            assert_eq!(uut.replay_move.val().index(), 1 << path[level], "level {level} of {path:?}");
            assert_eq!(uut.rejoin_level.val().index(), departs, "{path:?} against {offered:?}");
            let mut walked = path.clone();
            walked[level] = entered;
            assert_eq!(uut.entered_path.val(), encode_path(&walked), "move {entered} at {level}");
        }
    }
}

//! The dead-end judge: which of the current square's children cannot lead
//! to a tour, all eight at once, before any is entered (the host's
//! `Searcher::dead_end`, the same rule).
//!
//! Entering a child c, a free square's ways in become its onward count here:
//! it loses c as a free neighbour and gains c as the current square. So:
//!  - open: c is dead when a free square other than c has no way in, or two
//!    have one (both would have to be last);
//!  - closed (a knight move to the start is one more way): when a free square
//!    other than c has at most one way, or no free square but c closes the
//!    tour, with any square left after c.
//!
//! `blocked` holds the free squares of the first rule, `ends` those of the
//! second (open: one way in; closed: closing). Each candidate is a *lane*:
//! lanes 0-7 are the eight moves' targets, lane 8 the *probe* (the start
//! square or a prefix square, judged as it is entered).

use rust_hdl::prelude::*;

/// The judge for a board of `SQ` squares, `LB` bits a level: the
/// [`DeadEndMasks`], a [`DeadEndTally`] and the [`DeadEndRule`] after it, in
/// one clock. (The interleaved engine puts a register between each two.)
#[derive(LogicBlock)]
pub struct DeadEndJudge<const SQ: usize, const LB: usize> {
    /// Pruning is on; else nothing is dead.
    pub prune: Signal<In, bool>,
    /// The search wants closed tours.
    pub closed: Signal<In, bool>,
    /// The free squares.
    pub free: Signal<In, Bits<SQ>>,
    /// The start square's knight neighbours (where a closed tour may end).
    pub closing: Signal<In, Bits<SQ>>,
    /// Free squares with no onward move, and with one (`OnwardCounts`).
    pub none: Signal<In, Bits<SQ>>,
    pub one: Signal<In, Bits<SQ>>,
    /// The current square's move targets, their onward counts (builds with
    /// the full count), and which of them are free.
    pub targets: [Signal<In, Bits<SQ>>; 8],
    pub target_count: [Signal<In, Bits<32>>; 8],
    pub moves: Signal<In, Bits<8>>,
    /// The probe (one-hot, or 0).
    pub probe: Signal<In, Bits<SQ>>,
    /// A square would be left free besides the child (the squares visited
    /// are the levels up to the current one: its level + 3 <= the board's
    /// squares; while probing, the level is one below the probed square's).
    pub free_two: Signal<In, bool>,
    /// The free moves whose target is dead, and how many.
    pub doomed: Signal<Out, Bits<8>>,
    pub doomed_count: Signal<Out, Bits<4>>,
    /// The probe is dead.
    pub probe_dead: Signal<Out, bool>,

    masks: DeadEndMasks<SQ>,
    tally: DeadEndTally<SQ, LB>,
    rule: DeadEndRule,
}

impl<const SQ: usize, const LB: usize> DeadEndJudge<SQ, LB> {
    /// With `full_count`, the targets' onward counts are read (see
    /// `OnwardCounts::new`).
    pub fn new(full_count: bool) -> Self {
        DeadEndJudge {
            prune: Default::default(),
            closed: Default::default(),
            free: Default::default(),
            closing: Default::default(),
            none: Default::default(),
            one: Default::default(),
            targets: Default::default(),
            target_count: Default::default(),
            moves: Default::default(),
            probe: Default::default(),
            free_two: Default::default(),
            doomed: Default::default(),
            doomed_count: Default::default(),
            probe_dead: Default::default(),
            masks: Default::default(),
            tally: DeadEndTally::new(full_count),
            rule: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for DeadEndJudge<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.masks.closed.next = self.closed.val();
        self.masks.free.next = self.free.val();
        self.masks.closing.next = self.closing.val();
        self.masks.none.next = self.none.val();
        self.masks.one.next = self.one.val();
        self.tally.closed.next = self.closed.val();
        self.tally.closing.next = self.closing.val();
        self.tally.blocked.next = self.masks.blocked.val();
        self.tally.ends.next = self.masks.ends.val();
        for m in 0..8 {
            self.tally.targets[m].next = self.targets[m].val();
            self.tally.target_count[m].next = self.target_count[m].val();
        }
        self.tally.probe.next = self.probe.val();
        self.rule.prune.next = self.prune.val();
        self.rule.closed.next = self.closed.val();
        self.rule.free_two.next = self.free_two.val();
        self.rule.moves.next = self.moves.val();
        self.rule.some_blocked.next = self.tally.some_blocked.val();
        self.rule.two_blocked.next = self.tally.two_blocked.val();
        self.rule.some_ends.next = self.tally.some_ends.val();
        self.rule.two_ends.next = self.tally.two_ends.val();
        self.rule.three_ends.next = self.tally.three_ends.val();
        self.rule.lane_blocked.next = self.tally.lane_blocked.val();
        self.rule.lane_ends.next = self.tally.lane_ends.val();
        self.doomed.next = self.rule.doomed.val();
        self.doomed_count.next = self.rule.doomed_count.val();
        self.probe_dead.next = self.rule.probe_dead.val();
    }
}

/// The free squares each rule counts: the blocked (open: no free knight
/// neighbour; closed: none, or one and no knight move to the start) and the
/// ends (open: one free knight neighbour; closed: a knight move from the
/// start).
#[derive(LogicBlock, Default)]
pub struct DeadEndMasks<const SQ: usize> {
    pub closed: Signal<In, bool>,
    pub free: Signal<In, Bits<SQ>>,
    pub closing: Signal<In, Bits<SQ>>,
    /// The onward planes: squares with no free knight neighbour, and one.
    pub none: Signal<In, Bits<SQ>>,
    pub one: Signal<In, Bits<SQ>>,
    pub blocked: Signal<Out, Bits<SQ>>,
    pub ends: Signal<Out, Bits<SQ>>,
}

impl<const SQ: usize> Logic for DeadEndMasks<SQ> {
    #[hdl_gen]
    fn update(&mut self) {
        if self.closed.val() {
            self.blocked.next = self.free.val() & (self.none.val() | (self.one.val() & !self.closing.val()));
            self.ends.next = self.free.val() & self.closing.val();
        } else {
            self.blocked.next = self.free.val() & self.none.val();
            self.ends.next = self.free.val() & self.one.val();
        }
    }
}

/// The judge's first half, from the [`DeadEndMasks`]: how many free squares
/// each rule counts (blocked: none, one, two or more; ends: up to three), and
/// which lanes' targets are such squares themselves.
#[derive(LogicBlock)]
pub struct DeadEndTally<const SQ: usize, const LB: usize> {
    pub closed: Signal<In, bool>,
    pub closing: Signal<In, Bits<SQ>>,
    pub blocked: Signal<In, Bits<SQ>>,
    pub ends: Signal<In, Bits<SQ>>,
    pub targets: [Signal<In, Bits<SQ>>; 8],
    pub target_count: [Signal<In, Bits<32>>; 8],
    pub probe: Signal<In, Bits<SQ>>,
    /// Some free square is blocked, two are; one, two, three are ends.
    pub some_blocked: Signal<Out, bool>,
    pub two_blocked: Signal<Out, bool>,
    pub some_ends: Signal<Out, bool>,
    pub two_ends: Signal<Out, bool>,
    pub three_ends: Signal<Out, bool>,
    /// Lane l's target (lane 8: the probe) is blocked; is an end.
    pub lane_blocked: Signal<Out, Bits<16>>,
    pub lane_ends: Signal<Out, Bits<16>>,

    // Builds with the full onward count read a target's two bits off its
    // count, which they select anyway; the others select these two bits
    // instead of the count's four.
    full_count: Constant<bool>,
    smear_shift: [Constant<Bits<16>>; LB],

    blocked_any: [Signal<Local, Bits<SQ>>; LB],
    blocked_two: [Signal<Local, Bits<SQ>>; LB],
    ends_low: [Signal<Local, Bits<SQ>>; LB],
    ends_high: [Signal<Local, Bits<SQ>>; LB],
    lane_bit_blocked: [Signal<Local, bool>; 8],
    lane_bit_ends: [Signal<Local, bool>; 8],
    lane_blocked_chain: [Signal<Local, Bits<16>>; 8],
    lane_ends_chain: [Signal<Local, Bits<16>>; 8],
}

impl<const SQ: usize, const LB: usize> DeadEndTally<SQ, LB> {
    pub fn new(full_count: bool) -> Self {
        assert!(LB >= 2 && SQ <= 1 << LB);
        DeadEndTally {
            closed: Default::default(),
            closing: Default::default(),
            blocked: Default::default(),
            ends: Default::default(),
            targets: Default::default(),
            target_count: Default::default(),
            probe: Default::default(),
            some_blocked: Default::default(),
            two_blocked: Default::default(),
            some_ends: Default::default(),
            two_ends: Default::default(),
            three_ends: Default::default(),
            lane_blocked: Default::default(),
            lane_ends: Default::default(),
            full_count: Constant::new(full_count),
            smear_shift: std::array::from_fn(|k| Constant::new((1u64 << k).into())),
            blocked_any: std::array::from_fn(|_| Default::default()),
            blocked_two: std::array::from_fn(|_| Default::default()),
            ends_low: std::array::from_fn(|_| Default::default()),
            ends_high: std::array::from_fn(|_| Default::default()),
            lane_bit_blocked: Default::default(),
            lane_bit_ends: Default::default(),
            lane_blocked_chain: Default::default(),
            lane_ends_chain: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for DeadEndTally<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        // How many of each (up to two blocked, three ends), by trees: after
        // step k, bit i counts squares i .. i + 2^(k+1). Blocked squares as
        // any / two; ends as a 2-bit count that stops at three (each step's
        // bit is a function of four bits: one LUT level).
        self.blocked_any[0].next = self.blocked.val() | (self.blocked.val() >> self.smear_shift[0].val());
        self.blocked_two[0].next = self.blocked.val() & (self.blocked.val() >> self.smear_shift[0].val());
        self.ends_low[0].next = self.ends.val() ^ (self.ends.val() >> self.smear_shift[0].val());
        self.ends_high[0].next = self.ends.val() & (self.ends.val() >> self.smear_shift[0].val());
        for k in 1..LB {
            self.blocked_any[k].next =
                self.blocked_any[k - 1].val() | (self.blocked_any[k - 1].val() >> self.smear_shift[k].val());
            self.blocked_two[k].next = self.blocked_two[k - 1].val()
                | (self.blocked_two[k - 1].val() >> self.smear_shift[k].val())
                | (self.blocked_any[k - 1].val() & (self.blocked_any[k - 1].val() >> self.smear_shift[k].val()));
            // (low, high) + (low', high'), stopping at 3.
            self.ends_low[k].next = (self.ends_low[k - 1].val()
                ^ (self.ends_low[k - 1].val() >> self.smear_shift[k].val()))
                | (self.ends_high[k - 1].val()
                    & ((self.ends_low[k - 1].val() | self.ends_high[k - 1].val()) >> self.smear_shift[k].val()))
                | (self.ends_low[k - 1].val() & (self.ends_high[k - 1].val() >> self.smear_shift[k].val()));
            self.ends_high[k].next = self.ends_high[k - 1].val()
                | (self.ends_high[k - 1].val() >> self.smear_shift[k].val())
                | (self.ends_low[k - 1].val() & (self.ends_low[k - 1].val() >> self.smear_shift[k].val()));
            self.some_blocked.next = self.blocked_any[k].val().get_bit(0);
            self.two_blocked.next = self.blocked_two[k].val().get_bit(0);
            self.some_ends.next = self.ends_low[k].val().get_bit(0) | self.ends_high[k].val().get_bit(0);
            self.two_ends.next = self.ends_high[k].val().get_bit(0);
            self.three_ends.next = self.ends_low[k].val().get_bit(0) & self.ends_high[k].val().get_bit(0);
        }
        // A free target is blocked (or an end) as the square it is.
        for m in 0..8 {
            if self.full_count.val() {
                self.lane_bit_blocked[m].next = !self.target_count[m].val().any()
                    | (self.closed.val()
                        & (self.target_count[m].val() == 1)
                        & !(self.targets[m].val() & self.closing.val()).any());
                self.lane_bit_ends[m].next = (self.closed.val() & (self.targets[m].val() & self.closing.val()).any())
                    | (!self.closed.val() & (self.target_count[m].val() == 1));
            } else {
                self.lane_bit_blocked[m].next = (self.targets[m].val() & self.blocked.val()).any();
                self.lane_bit_ends[m].next = (self.targets[m].val() & self.ends.val()).any();
            }
        }
        self.lane_blocked_chain[0].next = bits::<16>(0).replace_bit(0, self.lane_bit_blocked[0].val());
        self.lane_ends_chain[0].next = bits::<16>(0).replace_bit(0, self.lane_bit_ends[0].val());
        for m in 1..8 {
            self.lane_blocked_chain[m].next =
                self.lane_blocked_chain[m - 1].val().replace_bit(m, self.lane_bit_blocked[m].val());
            self.lane_ends_chain[m].next =
                self.lane_ends_chain[m - 1].val().replace_bit(m, self.lane_bit_ends[m].val());
        }
        self.lane_blocked.next =
            self.lane_blocked_chain[7].val().replace_bit(8, (self.probe.val() & self.blocked.val()).any());
        self.lane_ends.next = self.lane_ends_chain[7].val().replace_bit(8, (self.probe.val() & self.ends.val()).any());
    }
}

/// The judge's second half: each lane judged by the rule from the tallies.
#[derive(LogicBlock, Default)]
pub struct DeadEndRule {
    pub prune: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub free_two: Signal<In, bool>,
    /// The free moves.
    pub moves: Signal<In, Bits<8>>,
    /// [`DeadEndTally`]'s outputs.
    pub some_blocked: Signal<In, bool>,
    pub two_blocked: Signal<In, bool>,
    pub some_ends: Signal<In, bool>,
    pub two_ends: Signal<In, bool>,
    pub three_ends: Signal<In, bool>,
    pub lane_blocked: Signal<In, Bits<16>>,
    pub lane_ends: Signal<In, Bits<16>>,
    /// The free moves whose target is dead, and how many; the probe is dead.
    pub doomed: Signal<Out, Bits<8>>,
    pub doomed_count: Signal<Out, Bits<4>>,
    pub probe_dead: Signal<Out, bool>,

    lane_dead_blocked: Signal<Local, Bits<16>>,
    lane_dead_ends: Signal<Local, Bits<16>>,
    lane_dead: Signal<Local, Bits<16>>,
    doomed_tally: [Signal<Local, Bits<4>>; 8],
}

impl Logic for DeadEndRule {
    #[hdl_gen]
    fn update(&mut self) {
        // Each rule, for every lane at once.
        self.lane_dead_blocked.next = 0.into();
        if self.two_blocked.val() {
            self.lane_dead_blocked.next = !bits::<16>(0);
        } else if self.some_blocked.val() {
            self.lane_dead_blocked.next = !self.lane_blocked.val();
        }
        self.lane_dead_ends.next = 0.into();
        if self.closed.val() {
            if self.free_two.val() & !self.some_ends.val() {
                self.lane_dead_ends.next = !bits::<16>(0);
            } else if self.free_two.val() & !self.two_ends.val() {
                self.lane_dead_ends.next = self.lane_ends.val();
            }
        } else if self.three_ends.val() {
            self.lane_dead_ends.next = !bits::<16>(0);
        } else if self.two_ends.val() {
            self.lane_dead_ends.next = !self.lane_ends.val();
        }
        self.lane_dead.next = 0.into();
        if self.prune.val() {
            self.lane_dead.next = self.lane_dead_blocked.val() | self.lane_dead_ends.val();
        }
        // (Of every free move, also when replaying: the stack keeps them for
        // a later job that rejoins at this level with another move.)
        self.doomed.next = self.moves.val() & bit_cast::<8, 16>(self.lane_dead.val());
        self.probe_dead.next = self.lane_dead.val().get_bit(8);
        self.doomed_tally[0].next = 0.into();
        if self.doomed.val().get_bit(0) {
            self.doomed_tally[0].next = 1.into();
        }
        for m in 1..8 {
            self.doomed_tally[m].next = self.doomed_tally[m - 1].val();
            if self.doomed.val().get_bit(m) {
                self.doomed_tally[m].next = self.doomed_tally[m - 1].val() + 1;
            }
        }
        self.doomed_count.next = self.doomed_tally[7].val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tours::common::geometry::KNIGHT_STEPS;

    const W: usize = 5;
    const H: usize = 4;
    const SQ: usize = W * H;
    const LB: usize = 5;

    fn neighbours(square: usize) -> impl Iterator<Item = usize> {
        let (file, rank) = ((square % W) as i32, (square / W) as i32);
        KNIGHT_STEPS.iter().filter_map(move |(df, dr)| {
            let (f, r) = (file + df, rank + dr);
            ((0..W as i32).contains(&f) && (0..H as i32).contains(&r)).then(|| r as usize * W + f as usize)
        })
    }

    fn target(square: usize, m: usize) -> Option<usize> {
        let (df, dr) = KNIGHT_STEPS[m];
        let (f, r) = ((square % W) as i32 + df, (square / W) as i32 + dr);
        ((0..W as i32).contains(&f) && (0..H as i32).contains(&r)).then(|| r as usize * W + f as usize)
    }

    fn onward(free: u64, square: usize) -> usize {
        neighbours(square).filter(|&n| free >> n & 1 == 1).count()
    }

    /// The rule in plain Rust, square by square: entering the free square
    /// `child`, every other free square needs its ways in (its free
    /// neighbours, the child among them, plus the start when closed).
    fn is_dead(free: u64, child: usize, closing: u64, closed: bool) -> bool {
        let rest: Vec<usize> = (0..SQ).filter(|&s| s != child && free >> s & 1 == 1).collect();
        let ways = |s: usize| onward(free, s) + usize::from(closed && closing >> s & 1 == 1);
        if closed {
            rest.iter().any(|&s| ways(s) <= 1) || (!rest.is_empty() && rest.iter().all(|&s| closing >> s & 1 == 0))
        } else {
            rest.iter().any(|&s| ways(s) == 0) || rest.iter().filter(|&&s| ways(s) == 1).count() >= 2
        }
    }

    fn check(full_count: bool) {
        let mut uut = DeadEndJudge::<SQ, LB>::new(full_count);
        uut.connect_all();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut dead_seen = 0;
        for round in 0..400 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Mostly free boards, where pruning has something to decide.
            let free = (seed | seed >> 23) & ((1 << SQ) - 1);
            let current = (seed >> 40) as usize % SQ;
            let free = free & !(1 << current);
            let start = (seed >> 50) as usize % SQ;
            let closing: u64 = neighbours(start).map(|n| 1 << n).sum();
            let closed = round % 2 == 1;
            let probe = (0..SQ).find(|&s| free >> s & 1 == 1 && target(current, 0) != Some(s));
            let visited = SQ - free.count_ones() as usize;
            uut.prune.next = round % 7 != 0;
            uut.closed.next = closed;
            uut.free.next = free.into();
            uut.closing.next = closing.into();
            uut.none.next = (0..SQ).filter(|&s| onward(free, s) == 0).map(|s| 1u64 << s).sum::<u64>().into();
            uut.one.next = (0..SQ).filter(|&s| onward(free, s) == 1).map(|s| 1u64 << s).sum::<u64>().into();
            let mut moves = 0u64;
            for m in 0..8 {
                let square = target(current, m);
                uut.targets[m].next = square.map_or(0, |s| 1u64 << s).into();
                let count = square.filter(|_| full_count).map_or(0, |s| onward(free, s)) as u64;
                uut.target_count[m].next = count.into();
                if square.is_some_and(|s| free >> s & 1 == 1) {
                    moves |= 1 << m;
                }
            }
            uut.moves.next = moves.into();
            uut.probe.next = probe.map_or(0, |s| 1u64 << s).into();
            uut.free_two.next = visited + 2 <= SQ;
            assert!(simulate(&mut uut, 100), "settles");

            let prune = round % 7 != 0;
            let expected: u64 = (0..8)
                .filter(|&m| moves >> m & 1 == 1)
                .filter(|&m| prune && is_dead(free, target(current, m).unwrap(), closing, closed))
                .map(|m| 1 << m)
                .sum();
            let context = format!("free {free:#x}, current {current}, start {start}, closed {closed}");
            assert_eq!(uut.doomed.val().index() as u64, expected, "{context}");
            assert_eq!(uut.doomed_count.val().index() as u32, expected.count_ones(), "{context}");
            let probe_dead = probe.is_some_and(|p| prune && is_dead(free, p, closing, closed));
            assert_eq!(uut.probe_dead.val(), probe_dead, "probe {probe:?}, {context}");
            dead_seen += expected.count_ones();
        }
        assert!(dead_seen > 50, "the cases exercise the rule: {dead_seen} dead children");
    }

    #[test]
    fn judges_children_as_the_rule_says_with_the_full_count() {
        check(true);
    }

    #[test]
    fn judges_children_as_the_rule_says_from_two_bits() {
        check(false);
    }
}

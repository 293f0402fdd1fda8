//! The counts dead-end pruning reads, kept up to date as cells change (the
//! reference's `TalliedSet`), and the judge that reads them.
//!
//! A free cell's *base ways* are its free neighbours, plus one on a closing
//! cell of a closed tour. The tallies count the free cells with no base way
//! and with one, the free cells, and the free closing cells. A clock changes
//! them by up to three cells: two neighbours whose free neighbours change by
//! one ([`WaysChange`]), and the cell entered, left or swept itself.

use rust_hdl::prelude::*;

/// One neighbour's word (visited, closing, free neighbours) changed by one
/// way: the word after, and its tally changes (0, 1 or -1 modulo `2^TB`).
/// Visited cells are not counted (and not written).
#[derive(LogicBlock)]
pub struct WaysChange<const TB: usize> {
    pub word: Signal<In, Bits<6>>,
    /// One way more (the centre is freed); else one fewer.
    pub freeing: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub free: Signal<Out, bool>,
    pub new_word: Signal<Out, Bits<6>>,
    pub no_way_change: Signal<Out, Bits<TB>>,
    pub one_way_change: Signal<Out, Bits<TB>>,
    minus_one: Constant<Bits<TB>>,
    closing: Signal<Local, bool>,
    new_ways: Signal<Local, Bits<4>>,
    ways: Signal<Local, Bits<4>>,
    base: Signal<Local, Bits<4>>,
    new_base: Signal<Local, Bits<4>>,
}

impl<const TB: usize> Default for WaysChange<TB> {
    fn default() -> Self {
        WaysChange {
            word: Default::default(),
            freeing: Default::default(),
            closed: Default::default(),
            free: Default::default(),
            closing: Default::default(),
            new_word: Default::default(),
            new_ways: Default::default(),
            no_way_change: Default::default(),
            one_way_change: Default::default(),
            minus_one: Constant::new(Bits::<TB>::mask()),
            ways: Default::default(),
            base: Default::default(),
            new_base: Default::default(),
        }
    }
}

impl<const TB: usize> Logic for WaysChange<TB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ways.next = self.word.val().get_bits::<4>(0);
        self.closing.next = self.word.val().get_bit(4);
        self.free.next = !self.word.val().get_bit(5);
        self.new_ways.next = self.ways.val() - 1;
        if self.freeing.val() {
            self.new_ways.next = self.ways.val() + 1;
        }
        self.new_word.next = (self.word.val() & 0x30) | bit_cast::<6, 4>(self.new_ways.val());
        self.base.next = self.ways.val();
        self.new_base.next = self.new_ways.val();
        if self.closed.val() & self.closing.val() {
            self.base.next = self.ways.val() + 1;
            self.new_base.next = self.new_ways.val() + 1;
        }
        self.no_way_change.next = 0.into();
        self.one_way_change.next = 0.into();
        if self.free.val() {
            if self.base.val() == 0 {
                self.no_way_change.next = self.minus_one.val();
            }
            if self.new_base.val() == 0 {
                self.no_way_change.next = 1.into();
            }
            if self.base.val() == 1 {
                self.one_way_change.next = self.minus_one.val();
            }
            if self.new_base.val() == 1 {
                self.one_way_change.next = 1.into();
            }
        }
    }
}

/// The tallies, and the judge. The judge reads flags of the tallies (zero,
/// one, two, more) kept in registers beside them, set from each clock's new
/// counts: it sits at the end of the engine's longest path, so it compares
/// nothing itself.
#[derive(LogicBlock)]
pub struct Tallies<const TB: usize> {
    pub clock: Signal<In, Clock>,
    /// Zeroes every tally (a new board is swept in next).
    pub clear: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub prune: Signal<In, bool>,
    /// Two neighbours' changes this clock.
    pub odd_no_way: Signal<In, Bits<TB>>,
    pub odd_one_way: Signal<In, Bits<TB>>,
    pub even_no_way: Signal<In, Bits<TB>>,
    pub even_one_way: Signal<In, Bits<TB>>,
    /// A cell joins the free cells (swept or freed) or leaves them
    /// (entered), with its free neighbours and closing bit.
    pub own_joins: Signal<In, bool>,
    pub own_leaves: Signal<In, bool>,
    pub own_ways: Signal<In, Bits<4>>,
    pub own_closing: Signal<In, bool>,
    /// Free squares; just one.
    pub free: Signal<Out, Bits<TB>>,
    pub free_one: Signal<Out, bool>,
    /// Whether entering the free square whose base ways are 0
    /// (`judge_base_none`) or 1 (`judge_base_one`), with closing bit
    /// `judge_closing`, leaves no tour (always false without pruning): the
    /// reference's `dead_end_entering`.
    pub judge_base_none: Signal<In, bool>,
    pub judge_base_one: Signal<In, bool>,
    pub judge_closing: Signal<In, bool>,
    pub dead: Signal<Out, bool>,

    minus_one: Constant<Bits<TB>>,
    no_way: DFF<Bits<TB>>,
    one_way: DFF<Bits<TB>>,
    free_cells: DFF<Bits<TB>>,
    free_closing: DFF<Bits<TB>>,
    // The flags: no_way 0 < x, x == 1; one_way 0 < x, x == 1, x == 2,
    // x > 2; free cells x == 1, x > 1; free closing cells 0 < x, x == 1.
    no_way_some: DFF<bool>,
    no_way_single: DFF<bool>,
    one_way_some: DFF<bool>,
    one_way_single: DFF<bool>,
    one_way_pair: DFF<bool>,
    one_way_many: DFF<bool>,
    free_single: DFF<bool>,
    free_many: DFF<bool>,
    closing_some: DFF<bool>,
    closing_single: DFF<bool>,
    own_base: Signal<Local, Bits<4>>,
    own_change: Signal<Local, Bits<TB>>,
    own_no_way: Signal<Local, Bits<TB>>,
    own_one_way: Signal<Local, Bits<TB>>,
    no_way_next: Signal<Local, Bits<TB>>,
    one_way_next: Signal<Local, Bits<TB>>,
    free_next: Signal<Local, Bits<TB>>,
    closing_next: Signal<Local, Bits<TB>>,
    other_no_way: Signal<Local, bool>,
    other_one_way: Signal<Local, bool>,
    other_one_way_pair: Signal<Local, bool>,
    closing_left: Signal<Local, bool>,
}

impl<const TB: usize> Default for Tallies<TB> {
    fn default() -> Self {
        Tallies {
            clock: Default::default(),
            clear: Default::default(),
            closed: Default::default(),
            prune: Default::default(),
            odd_no_way: Default::default(),
            odd_one_way: Default::default(),
            even_no_way: Default::default(),
            even_one_way: Default::default(),
            own_joins: Default::default(),
            own_leaves: Default::default(),
            own_ways: Default::default(),
            own_closing: Default::default(),
            free: Default::default(),
            free_one: Default::default(),
            judge_base_none: Default::default(),
            judge_base_one: Default::default(),
            judge_closing: Default::default(),
            dead: Default::default(),
            minus_one: Constant::new(Bits::<TB>::mask()),
            no_way: Default::default(),
            one_way: Default::default(),
            free_cells: Default::default(),
            free_closing: Default::default(),
            no_way_some: Default::default(),
            no_way_single: Default::default(),
            one_way_some: Default::default(),
            one_way_single: Default::default(),
            one_way_pair: Default::default(),
            one_way_many: Default::default(),
            free_single: Default::default(),
            free_many: Default::default(),
            closing_some: Default::default(),
            closing_single: Default::default(),
            own_base: Default::default(),
            own_change: Default::default(),
            own_no_way: Default::default(),
            own_one_way: Default::default(),
            no_way_next: Default::default(),
            one_way_next: Default::default(),
            free_next: Default::default(),
            closing_next: Default::default(),
            other_no_way: Default::default(),
            other_one_way: Default::default(),
            other_one_way_pair: Default::default(),
            closing_left: Default::default(),
        }
    }
}

impl<const TB: usize> Logic for Tallies<TB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            no_way,
            one_way,
            free_cells,
            free_closing,
            no_way_some,
            no_way_single,
            one_way_some,
            one_way_single,
            one_way_pair,
            one_way_many,
            free_single,
            free_many,
            closing_some,
            closing_single
        );
        self.free.next = self.free_cells.q.val();
        self.free_one.next = self.free_single.q.val();

        // The cell itself joins or leaves its class.
        self.own_base.next = self.own_ways.val();
        if self.closed.val() & self.own_closing.val() {
            self.own_base.next = self.own_ways.val() + 1;
        }
        self.own_change.next = 0.into();
        if self.own_joins.val() {
            self.own_change.next = 1.into();
        }
        if self.own_leaves.val() {
            self.own_change.next = self.minus_one.val();
        }
        self.own_no_way.next = 0.into();
        if self.own_base.val() == 0 {
            self.own_no_way.next = self.own_change.val();
        }
        self.own_one_way.next = 0.into();
        if self.own_base.val() == 1 {
            self.own_one_way.next = self.own_change.val();
        }
        self.no_way_next.next =
            self.no_way.q.val() + self.odd_no_way.val() + self.even_no_way.val() + self.own_no_way.val();
        self.one_way_next.next =
            self.one_way.q.val() + self.odd_one_way.val() + self.even_one_way.val() + self.own_one_way.val();
        self.free_next.next = self.free_cells.q.val() + self.own_change.val();
        self.closing_next.next = self.free_closing.q.val();
        if self.own_closing.val() {
            self.closing_next.next = self.free_closing.q.val() + self.own_change.val();
        }
        if self.clear.val() {
            self.no_way_next.next = 0.into();
            self.one_way_next.next = 0.into();
            self.free_next.next = 0.into();
            self.closing_next.next = 0.into();
        }
        self.no_way.d.next = self.no_way_next.val();
        self.one_way.d.next = self.one_way_next.val();
        self.free_cells.d.next = self.free_next.val();
        self.free_closing.d.next = self.closing_next.val();
        self.no_way_some.d.next = self.no_way_next.val().any();
        self.no_way_single.d.next = self.no_way_next.val() == 1;
        self.one_way_some.d.next = self.one_way_next.val().any();
        self.one_way_single.d.next = self.one_way_next.val() == 1;
        self.one_way_pair.d.next = self.one_way_next.val() == 2;
        self.one_way_many.d.next = self.one_way_next.val() > 2;
        self.free_single.d.next = self.free_next.val() == 1;
        self.free_many.d.next = self.free_next.val() > 1;
        self.closing_some.d.next = self.closing_next.val().any();
        self.closing_single.d.next = self.closing_next.val() == 1;

        // The judge: the tallies with the judged square left out.
        self.other_no_way.next = self.no_way_some.q.val() & !(self.judge_base_none.val() & self.no_way_single.q.val());
        self.other_one_way.next =
            self.one_way_some.q.val() & !(self.judge_base_one.val() & self.one_way_single.q.val());
        self.other_one_way_pair.next =
            self.one_way_many.q.val() | (self.one_way_pair.q.val() & !self.judge_base_one.val());
        self.closing_left.next = self.closing_some.q.val() & !(self.judge_closing.val() & self.closing_single.q.val());
        if self.closed.val() {
            self.dead.next = self.prune.val()
                & (self.other_no_way.val()
                    | self.other_one_way.val()
                    | (self.free_many.q.val() & !self.closing_left.val()));
        } else {
            self.dead.next = self.prune.val() & (self.other_no_way.val() | self.other_one_way_pair.val());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell word: visited, closing, free neighbours.
    fn word(visited: bool, closing: bool, ways: u64) -> u64 {
        u64::from(visited) << 5 | u64::from(closing) << 4 | ways
    }

    #[test]
    fn a_neighbour_moves_between_the_tallies_as_its_ways_change() {
        let mut uut = WaysChange::<6>::default();
        uut.connect_all();
        let minus_one = 63u64;
        // (word, freeing, closed) -> (new word, no-way change, one-way change)
        for (input, freeing, closed, expected) in [
            (word(false, false, 2), false, false, (word(false, false, 1), 0, 1)),
            (word(false, false, 1), false, false, (word(false, false, 0), 1, minus_one)),
            (word(false, false, 0), true, false, (word(false, false, 1), minus_one, 1)),
            (word(false, true, 1), false, true, (word(false, true, 0), 0, 1)),
            (word(false, true, 0), true, true, (word(false, true, 1), 0, minus_one)),
            (word(false, false, 5), true, false, (word(false, false, 6), 0, 0)),
        ] {
            uut.word.next = input.into();
            uut.freeing.next = freeing;
            uut.closed.next = closed;
            assert!(simulate(&mut uut, 10));
            assert!(uut.free.val());
            let got =
                (uut.new_word.val().to_u64(), uut.no_way_change.val().to_u64(), uut.one_way_change.val().to_u64());
            assert_eq!(got, expected, "word {input:#b} freeing={freeing} closed={closed}");
        }
        // A visited cell is not counted.
        uut.word.next = word(true, false, 1).into();
        assert!(simulate(&mut uut, 10));
        assert!(!uut.free.val() && !uut.no_way_change.val().any() && !uut.one_way_change.val().any());
    }

    /// Judges `(ways, closing)` after the cells `(ways, closing)` have
    /// joined the free cells.
    fn judge(closed: bool, cells: &[(u64, bool)], judged: (u64, bool)) -> bool {
        let mut uut = Tallies::<6>::default();
        uut.connect_all();
        let cells = cells.to_vec();
        let result = std::sync::Arc::new(std::sync::Mutex::new(false));
        let out = result.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Tallies<6>>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Tallies<6>>| {
            let mut x = sim.init()?;
            x.closed.next = closed;
            x.prune.next = true;
            x.clear.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.clear.next = false;
            for &(ways, closing) in &cells {
                x.own_joins.next = true;
                x.own_ways.next = ways.into();
                x.own_closing.next = closing;
                wait_clock_cycle!(sim, clock, x);
            }
            x.own_joins.next = false;
            let base = judged.0 + u64::from(closed && judged.1);
            x.judge_base_none.next = base == 0;
            x.judge_base_one.next = base == 1;
            x.judge_closing.next = judged.1;
            wait_clock_cycle!(sim, clock, x);
            sim_assert_eq!(sim, x.free.val().index(), cells.len(), x);
            *out.lock().unwrap() = x.dead.val();
            sim.done(x)
        });
        sim.run(Box::new(uut), 10_000).unwrap();
        let dead = *result.lock().unwrap();
        dead
    }

    #[test]
    fn judges_as_the_reference_rule() {
        // Open: a square with no way, or two with one, besides the judged.
        assert!(!judge(false, &[(2, false), (1, false), (3, false)], (3, false)));
        assert!(judge(false, &[(2, false), (0, false), (3, false)], (3, false)));
        assert!(!judge(false, &[(2, false), (0, false)], (0, false)), "the judged square is left out");
        assert!(judge(false, &[(1, false), (1, false), (4, false)], (4, false)));
        assert!(!judge(false, &[(1, false), (1, false)], (1, false)));
        assert!(judge(false, &[(1, false), (1, false), (1, false)], (1, false)));
        assert!(!judge(false, &[(0, false)], (0, false)), "the last square");
        // Closed: a square with one way (a closing one counts one more), or
        // none of the others closing.
        assert!(!judge(true, &[(1, true), (2, false), (3, true)], (2, false)));
        assert!(judge(true, &[(1, false), (2, false), (3, true)], (2, false)));
        assert!(judge(true, &[(2, false), (3, true)], (3, true)), "no closing square would be left");
        assert!(!judge(true, &[(3, true)], (3, true)), "the last square");
    }
}

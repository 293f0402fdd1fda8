//! The current node's children: which of the eight moves lead to a free
//! square, their Warnsdorff degrees, which of them are dead ends, and the
//! one to take (with the moves left after it), all in the node's clock.

use rust_hdl::prelude::*;

use super::dead_end::DeadEndJudge;
use super::knight_moves::KnightMoves;
use super::onward::OnwardCounts;
use crate::tours::common::geometry::Geometry;
use crate::tours::common::move_select::MoveSelect;

#[derive(LogicBlock)]
pub struct Children<const SQ: usize, const LB: usize> {
    /// The current square, one-hot and as an index, and the free squares.
    pub current: Signal<In, Bits<SQ>>,
    pub current_index: Signal<In, Bits<LB>>,
    pub free: Signal<In, Bits<SQ>>,
    /// Order by Warnsdorff's degree (else every degree is 0).
    pub warnsdorff: Signal<In, bool>,
    /// Pruning and the closed rule, as `DeadEndJudge` takes them: the start's
    /// neighbours, the probe, the current level and the board's squares.
    pub prune: Signal<In, bool>,
    pub closed: Signal<In, bool>,
    pub closing: Signal<In, Bits<SQ>>,
    pub probe: Signal<In, Bits<SQ>>,
    pub depth: Signal<In, Bits<LB>>,
    pub area: Signal<In, Bits<16>>,
    /// Replaying a job's path: this move is the only one offered.
    pub replaying: Signal<In, bool>,
    pub replay_move: Signal<In, Bits<8>>,
    /// Count mode: dead children are counted, not entered, so they are not
    /// offered to the choice.
    pub skip_dead: Signal<In, bool>,

    /// The free moves' degrees, four bits a move (as the stack keeps them).
    pub degrees: Signal<Out, Bits<32>>,
    /// The free moves whose target is a dead end, and how many; the probe
    /// is dead.
    pub doomed: Signal<Out, Bits<8>>,
    pub doomed_count: Signal<Out, Bits<4>>,
    pub probe_dead: Signal<Out, bool>,
    /// Some move is offered.
    pub has_move: Signal<Out, bool>,
    /// The move taken (one-hot) and the offered moves left after it.
    pub first: Signal<Out, Bits<8>>,
    pub rest: Signal<Out, Bits<8>>,
    /// The square the taken move enters, one-hot and as an index.
    pub child: Signal<Out, Bits<SQ>>,
    pub child_index: Signal<Out, Bits<LB>>,

    knight: KnightMoves<SQ, LB>,
    onward: OnwardCounts<SQ>,
    judge: DeadEndJudge<SQ, LB>,
    choice: MoveSelect,
    degree_shift: [Constant<Bits<8>>; 8],
    moves_chain: [Signal<Local, Bits<8>>; 8],
    degree: [Signal<Local, Bits<32>>; 8],
    degrees_chain: [Signal<Local, Bits<32>>; 8],
    offered: Signal<Local, Bits<8>>,
    tried: Signal<Local, Bits<8>>,
}

impl<const SQ: usize, const LB: usize> Children<SQ, LB> {
    /// With `warnsdorff`, Warnsdorff's order is built in.
    pub fn new(geometry: Geometry, warnsdorff: bool) -> Self {
        Children {
            current: Default::default(),
            current_index: Default::default(),
            free: Default::default(),
            warnsdorff: Default::default(),
            prune: Default::default(),
            closed: Default::default(),
            closing: Default::default(),
            probe: Default::default(),
            depth: Default::default(),
            area: Default::default(),
            replaying: Default::default(),
            replay_move: Default::default(),
            skip_dead: Default::default(),
            degrees: Default::default(),
            doomed: Default::default(),
            doomed_count: Default::default(),
            probe_dead: Default::default(),
            has_move: Default::default(),
            first: Default::default(),
            rest: Default::default(),
            child: Default::default(),
            child_index: Default::default(),
            knight: KnightMoves::new(geometry),
            onward: OnwardCounts::new(geometry, warnsdorff),
            judge: DeadEndJudge::new(warnsdorff),
            choice: Default::default(),
            degree_shift: std::array::from_fn(|m| Constant::new((4 * m as u64).into())),
            moves_chain: Default::default(),
            degree: Default::default(),
            degrees_chain: Default::default(),
            offered: Default::default(),
            tried: Default::default(),
        }
    }
}

impl<const SQ: usize, const LB: usize> Logic for Children<SQ, LB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.knight.square.next = self.current.val();
        self.knight.index.next = self.current_index.val();
        self.onward.free.next = self.free.val();
        self.moves_chain[0].next = bits::<8>(0).replace_bit(0, (self.knight.targets[0].val() & self.free.val()).any());
        for m in 1..8 {
            self.moves_chain[m].next =
                self.moves_chain[m - 1].val().replace_bit(m, (self.knight.targets[m].val() & self.free.val()).any());
        }
        for m in 0..8 {
            self.onward.targets[m].next = self.knight.targets[m].val();
            self.judge.targets[m].next = self.knight.targets[m].val();
            self.judge.target_count[m].next = self.onward.target_count[m].val();
            self.degree[m].next = 0.into();
            // (A build without Warnsdorff's order makes no counts: they are 0.)
            if self.warnsdorff.val() {
                self.degree[m].next = self.onward.target_count[m].val();
            }
        }
        self.degrees_chain[0].next = self.degree[0].val();
        for m in 1..8 {
            self.degrees_chain[m].next =
                self.degrees_chain[m - 1].val() | (self.degree[m].val() << self.degree_shift[m].val());
        }
        self.degrees.next = self.degrees_chain[7].val();

        self.judge.prune.next = self.prune.val();
        self.judge.closed.next = self.closed.val();
        self.judge.free.next = self.free.val();
        self.judge.closing.next = self.closing.val();
        self.judge.none.next = self.onward.none.val();
        self.judge.one.next = self.onward.one.val();
        self.judge.moves.next = self.moves_chain[7].val();
        self.judge.probe.next = self.probe.val();
        self.judge.free_two.next = (bit_cast::<16, LB>(self.depth.val() + 1) + 2) <= self.area.val();
        self.doomed.next = self.judge.doomed.val();
        self.doomed_count.next = self.judge.doomed_count.val();
        self.probe_dead.next = self.judge.probe_dead.val();

        // A replayed move is forced here, where the moves come in early, and
        // not on the chosen move, which is on the step's longest path. (It is
        // never dead in count mode: the walker entered it.)
        self.offered.next = self.moves_chain[7].val();
        if self.replaying.val() {
            self.offered.next = self.replay_move.val();
        }
        self.tried.next = self.offered.val();
        if self.skip_dead.val() {
            self.tried.next = self.offered.val() & !self.judge.doomed.val();
        }
        self.has_move.next = self.tried.val().any();
        self.choice.candidates.next = self.tried.val();
        self.choice.degrees.next = self.degrees_chain[7].val();
        self.first.next = self.choice.first.val();
        self.rest.next = self.choice.rest.val();
        self.knight.chosen.next = self.choice.first.val();
        self.child.next = self.knight.child.val();
        self.child_index.next = self.knight.child_index.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_model::tours::moves::{knight_neighbours, KNIGHT_STEPS};
    use knights_model::tours::{MoveOrder, SearchSpec, Searcher};
    use knights_model::{BoardSize, Square};

    const WIDTH: u16 = 6;
    const HEIGHT: u16 = 5;
    const SQ: usize = 30;
    const LB: usize = 5;

    fn board() -> BoardSize {
        BoardSize::new(WIDTH, HEIGHT)
    }

    fn one_hot(squares: impl IntoIterator<Item = Square>) -> u64 {
        squares.into_iter().map(|s| 1u64 << s.index(board())).sum()
    }

    /// The children of a path's last square, as the model sees them.
    struct Model {
        /// Each move's target where it is free.
        targets: [Option<Square>; 8],
        free_moves: u64,
        /// A free target's free neighbours (the path visited).
        degrees: [usize; 8],
        /// The free targets `Searcher::prunes` rejects once entered.
        doomed: u64,
    }

    impl Model {
        fn new(path: &[Square], closed: bool, prune: bool) -> Self {
            let spec = SearchSpec { board: board(), start: path[0], closed, order: MoveOrder::Fixed, prune };
            let searcher = Searcher::new(spec).unwrap();
            let at = *path.last().unwrap();
            let targets = KNIGHT_STEPS.map(|(df, dr)| at.offset(df, dr, board()).filter(|t| !path.contains(t)));
            let degrees =
                targets.map(|t| t.map_or(0, |t| knight_neighbours(t, board()).filter(|n| !path.contains(n)).count()));
            let mask = |keep: &dyn Fn(Square) -> bool| -> u64 {
                (0..8).filter(|&m| targets[m].is_some_and(keep)).map(|m| 1u64 << m).sum()
            };
            let free_moves = mask(&|_| true);
            let doomed = mask(&|t| searcher.prunes(&[path, &[t]].concat()));
            Model { targets, free_moves, degrees, doomed }
        }

        /// The move the search takes of `moves`: the lowest index, or with
        /// Warnsdorff's order the least degree first.
        fn choice(&self, moves: u64, warnsdorff: bool) -> Option<usize> {
            (0..8).filter(|&m| moves >> m & 1 == 1).min_by_key(|&m| (if warnsdorff { self.degrees[m] } else { 0 }, m))
        }
    }

    /// Self-avoiding knight walks over the board, each until it is stuck,
    /// from pseudo-random squares with pseudo-random moves.
    fn walks(count: usize) -> Vec<Vec<Square>> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        (0..count)
            .map(|_| {
                let start = board().squares().nth(next() as usize % board().area()).unwrap();
                let mut path = vec![start];
                loop {
                    let at = *path.last().unwrap();
                    let onward: Vec<Square> = knight_neighbours(at, board()).filter(|n| !path.contains(n)).collect();
                    if onward.is_empty() {
                        break path;
                    }
                    path.push(onward[next() as usize % onward.len()]);
                }
            })
            .collect()
    }

    fn children(warnsdorff_build: bool) -> Children<SQ, LB> {
        let mut uut = Children::new(Geometry::new(WIDTH as usize, HEIGHT as usize), warnsdorff_build);
        uut.connect_all();
        uut
    }

    /// Stands the block on the path's last square, as the step does.
    fn stand_on(uut: &mut Children<SQ, LB>, path: &[Square], closed: bool, prune: bool) {
        let at = *path.last().unwrap();
        uut.current.next = one_hot([at]).into();
        uut.current_index.next = (at.index(board()) as u64).into();
        uut.free.next = (one_hot(board().squares()) & !one_hot(path.iter().copied())).into();
        uut.prune.next = prune;
        uut.closed.next = closed;
        uut.closing.next = one_hot(knight_neighbours(path[0], board())).into();
        uut.probe.next = 0.into();
        uut.depth.next = ((path.len() - 1) as u64).into();
        uut.area.next = (board().area() as u64).into();
        uut.replaying.next = false;
        uut.replay_move.next = 0.into();
        uut.skip_dead.next = false;
    }

    fn check_choice(uut: &Children<SQ, LB>, model: &Model, offered: u64, taken: Option<usize>, context: &str) {
        let first = taken.map_or(0, |m| 1u64 << m);
        assert_eq!(uut.has_move.val(), taken.is_some(), "{context}");
        assert_eq!(uut.first.val().index() as u64, first, "{context}");
        assert_eq!(uut.rest.val().index() as u64, offered & !first, "{context}");
        let child = taken.and_then(|m| model.targets[m]);
        assert_eq!(uut.child.val().index() as u64, one_hot(child), "{context}");
        if let Some(child) = child {
            assert_eq!(uut.child_index.val().index(), child.index(board()), "{context}");
        }
    }

    /// Along walks on 6×5, every node's free moves, the move taken in fixed
    /// and in Warnsdorff's order (the rest kept), the free moves' degrees,
    /// and which of them the model's dead-end rule rejects (open and closed,
    /// pruning on and off), in builds with and without Warnsdorff's order.
    #[test]
    fn offers_the_free_moves_in_order_and_judges_them_as_the_model_does() {
        let (mut reordered, mut doomed_seen) = (0, 0);
        for warnsdorff_build in [false, true] {
            let mut uut = children(warnsdorff_build);
            for (w, walk) in walks(16).iter().enumerate() {
                for length in 1..=walk.len() {
                    let path = &walk[..length];
                    let closed = (w + length) % 2 == 1;
                    let prune = length % 5 != 0;
                    let warnsdorff = warnsdorff_build & (length % 3 != 0);
                    let model = Model::new(path, closed, prune);
                    stand_on(&mut uut, path, closed, prune);
                    uut.warnsdorff.next = warnsdorff;
                    // The probe: the last free move's target, judged as if
                    // entered (a prefix square): dead as that move is.
                    let probe_move = (0..8).rev().find(|&m| model.free_moves >> m & 1 == 1);
                    uut.probe.next = one_hot(probe_move.and_then(|m| model.targets[m])).into();
                    assert!(simulate(&mut uut, 200), "settles");

                    let context = format!("path {path:?}, closed {closed}, prune {prune}, warnsdorff {warnsdorff}");
                    let taken = model.choice(model.free_moves, warnsdorff);
                    check_choice(&uut, &model, model.free_moves, taken, &context);
                    reordered += usize::from(taken != model.choice(model.free_moves, false));
                    for m in (0..8).filter(|&m| model.free_moves >> m & 1 == 1) {
                        let degree = (uut.degrees.val().index() >> (4 * m)) & 15;
                        assert_eq!(degree, if warnsdorff { model.degrees[m] } else { 0 }, "move {m}, {context}");
                    }
                    assert_eq!(uut.doomed.val().index() as u64, model.doomed, "{context}");
                    assert_eq!(uut.doomed_count.val().index() as u32, model.doomed.count_ones(), "{context}");
                    // (With no probe, `probe_dead` means nothing.)
                    if let Some(m) = probe_move {
                        assert_eq!(uut.probe_dead.val(), model.doomed >> m & 1 == 1, "probe move {m}, {context}");
                    }
                    doomed_seen += model.doomed.count_ones();
                }
            }
        }
        // The walks exercise both: Warnsdorff's order departs from the fixed
        // one, and pruning rejects children.
        assert!(reordered > 20, "{reordered} nodes reordered");
        assert!(doomed_seen > 50, "{doomed_seen} doomed children");
    }

    /// Replaying a job's path offers the replayed move alone (its doomed
    /// siblings still judged, for the stack); count mode leaves the dead
    /// children out of the choice, so a node whose children all die has no
    /// move.
    #[test]
    fn a_replayed_move_is_the_only_one_offered_and_count_mode_skips_dead_children() {
        let mut uut = children(true);
        let (mut skipped, mut all_dead) = (0, 0);
        for (w, walk) in walks(64).iter().enumerate() {
            for length in 1..=walk.len() {
                let path = &walk[..length];
                let closed = (w + length) % 2 == 0;
                let model = Model::new(path, closed, true);
                let context = format!("path {path:?}, closed {closed}");
                // A free move the order would not take first (where there is
                // one), forced: it is taken, and alone.
                let natural = model.choice(model.free_moves, true);
                let other = (0..8).rev().find(|&m| model.free_moves >> m & 1 == 1 && Some(m) != natural);
                if let Some(forced) = other.or(natural) {
                    stand_on(&mut uut, path, closed, true);
                    uut.warnsdorff.next = true;
                    uut.replaying.next = true;
                    uut.replay_move.next = (1u64 << forced).into();
                    assert!(simulate(&mut uut, 200), "settles");
                    check_choice(&uut, &model, 1 << forced, Some(forced), &context);
                    assert_eq!(uut.doomed.val().index() as u64, model.doomed, "{context}");
                }
                // Count mode: the choice is among the live children only (in
                // both orders: Warnsdorff's mostly takes a live child first
                // anyway, as a forced square has the least degree).
                let warnsdorff = length % 2 == 0;
                stand_on(&mut uut, path, closed, true);
                uut.warnsdorff.next = warnsdorff;
                uut.skip_dead.next = true;
                assert!(simulate(&mut uut, 200), "settles");
                let live = model.free_moves & !model.doomed;
                let taken = model.choice(live, warnsdorff);
                check_choice(&uut, &model, live, taken, &context);
                skipped += usize::from(taken.is_some() && taken != model.choice(model.free_moves, warnsdorff));
                all_dead += usize::from(live == 0 && model.free_moves != 0);
            }
        }
        assert!(
            skipped >= 5 && all_dead > 100,
            "{skipped} live choices changed, {all_dead} nodes with every child dead"
        );
    }
}

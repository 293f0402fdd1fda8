//! The constellation generator: the jobs of a count from constellations,
//! made on the FPGA (see `knights_model::queens::constellations`, the
//! reference it matches job for job), held by the walker of a build that
//! counts from constellations (see `super` and `ranks`).
//!
//! It tries every placement of the edges' queens, the four numbers
//! (i, j, a, b) = (the first rank's queen's file, the last rank's, file a's
//! queen's rank, the last file's) counted up from (0, 0, 0, 0), and gives out
//! those that are consistent (a corner queen named by both its edges, no two
//! attacking), whose i is among the first files asked for (all of them for
//! a whole count, some for a job of a count that devices share), and
//! canonical (the least of their eight images), each as the
//! image to search and its weight (how many distinct images it has). On the
//! four numbers the board's symmetries only swap and reflect them
//! (m = N - 1): the image of (i, j, a, b) under the mirror of the files is
//! (m-i, m-j, b, a), and so on.
//!
//! It is a pipeline of registers, so that no path runs from a candidate's
//! numbers through its images' costs to their comparison in one clock:
//! - enumerate: one candidate a clock, its consistency registered with it,
//!   so that an inconsistent one costs the evaluation nothing;
//! - issue: a consistent candidate's eight images, one a clock, each
//!   compared with the candidate (below it: no job, and the candidate is
//!   left; equal: one fewer distinct image);
//! - distances: how far the image's edge queens are from the board's
//!   middle;
//! - cost: the image's key (its cost estimate from those, then its
//!   numbers);
//! - compare: the least key so far;
//! - the job out, the cheapest image (the least key, as the reference
//!   breaks ties) with its weight.
//!
//! So one cost estimate and three comparators serve all eight images,
//! where all eight side by side took about 1,800 LUT4 and 900 carry cells
//! of an ECP5.
//!
//! Eight clocks a canonical candidate, one more than the images up to the
//! first below it for one that is not, while the enumerator looks for the
//! next. Every stage moves together, held only while a finished
//! candidate waits for the job out to be taken.

use rust_hdl::prelude::*;

/// The four numbers of a constellation, 5 bits each, i in the high bits (so
/// that their order as numbers is the reference's order).
pub const TUPLE_BITS: usize = 20;

#[derive(LogicBlock)]
pub struct ConstellationGenerator {
    pub clock: Signal<In, Clock>,
    /// Starts over from (0, 0, 0, 0) for a board of `n` files, 1 to 32 (32
    /// as 0 in five bits, so m = 31), dropping a job not yet taken.
    pub start: Signal<In, bool>,
    pub n: Signal<In, Bits<8>>,
    /// The files the first rank's queen of a class's canonical image may
    /// take (bit f for file f): a part of a count, for a job that devices
    /// share; every file for the whole count. Held while it runs.
    pub first_files: Signal<In, Bits<32>>,
    /// A job: the image to search, and its weight as a power of two.
    pub job: Signal<Out, Bits<TUPLE_BITS>>,
    pub weight_log2: Signal<Out, Bits<2>>,
    pub valid: Signal<Out, bool>,
    pub ready: Signal<In, bool>,
    /// Idle: every candidate tried and every job taken (and before the
    /// first start).
    pub done: Signal<Out, bool>,

    last: DFF<Bits<5>>,
    three_n: DFF<Bits<8>>,
    // Enumerate: the next candidate, and the last consistent one found.
    enumerating: DFF<bool>,
    untried: DFF<Bits<TUPLE_BITS>>,
    offered: DFF<Bits<TUPLE_BITS>>,
    offered_valid: DFF<bool>,
    // Issue: the candidate whose images are taken, and this clock's (0 the
    // identity, 7 the last).
    issuing: DFF<bool>,
    candidate: DFF<Bits<TUPLE_BITS>>,
    // Its numbers reflected (m - i, m - j, m - a, m - b), made as it is
    // taken: off the path from the candidate to its images' comparisons.
    reflected: DFF<Bits<TUPLE_BITS>>,
    symmetry: DFF<Bits<3>>,
    // Distances: an image, and how it stands to its candidate.
    image_valid: DFF<bool>,
    image_first: DFF<bool>,
    image_last: DFF<bool>,
    image: DFF<Bits<TUPLE_BITS>>,
    image_below: DFF<bool>,
    image_equal: DFF<bool>,
    // Cost: the same, with the image's distances (the distances and their
    // sum in one clock were the longest path of a 20-search N-Queens build
    // on the ULX3S-25F).
    far_valid: DFF<bool>,
    far_first: DFF<bool>,
    far_last: DFF<bool>,
    far_image: DFF<Bits<TUPLE_BITS>>,
    far_below: DFF<bool>,
    far_equal: DFF<bool>,
    a_apart: DFF<Bits<12>>,
    b_apart: DFF<Bits<12>>,
    i_apart: DFF<Bits<12>>,
    j_apart: DFF<Bits<12>>,
    // Compare: an image's key.
    key_valid: DFF<bool>,
    key_first: DFF<bool>,
    key_last: DFF<bool>,
    key_below: DFF<bool>,
    key_equal: DFF<bool>,
    key: DFF<Bits<32>>,
    // What the candidate's images before this clock's have shown.
    canonical: DFF<bool>,
    same: DFF<Bits<4>>,
    best: DFF<Bits<32>>,
    out_valid: DFF<bool>,
    out_job: DFF<Bits<TUPLE_BITS>>,
    out_weight_log2: DFF<Bits<2>>,

    zero: Constant<Bits<5>>,
    // The untried candidate's numbers.
    ui: Signal<Local, Bits<5>>,
    uj: Signal<Local, Bits<5>>,
    ua: Signal<Local, Bits<5>>,
    ub: Signal<Local, Bits<5>>,
    /// The six pairs of the queens (0, i), (m, j), (a, 0), (b, m).
    queen_pairs: [QueenPair; 6],
    // Consistent, and its i a first file asked for.
    wanted: Signal<Local, bool>,
    // The issued candidate's numbers, and m - i and so on.
    i: Signal<Local, Bits<5>>,
    j: Signal<Local, Bits<5>>,
    a: Signal<Local, Bits<5>>,
    b: Signal<Local, Bits<5>>,
    ri: Signal<Local, Bits<5>>,
    rj: Signal<Local, Bits<5>>,
    ra: Signal<Local, Bits<5>>,
    rb: Signal<Local, Bits<5>>,
    image_i: Signal<Local, Bits<5>>,
    image_j: Signal<Local, Bits<5>>,
    image_a: Signal<Local, Bits<5>>,
    image_b: Signal<Local, Bits<5>>,
    issued_image: Signal<Local, Bits<TUPLE_BITS>>,
    image_distances: ImageDistances,
    image_cost: ImageCost,
    // The candidate's images up to the compared one.
    canonical_now: Signal<Local, bool>,
    same_now: Signal<Local, Bits<4>>,
    best_now: Signal<Local, Bits<32>>,
    /// Every stage waits: a finished candidate, and the last job not taken.
    hold: Signal<Local, bool>,
    /// The issue stage takes the offered candidate.
    take: Signal<Local, bool>,
    /// An image below its candidate shows it is no job: the issue stage
    /// leaves it (the candidate's images already issued go on, and end
    /// before its last).
    leave: Signal<Local, bool>,
}

impl Default for ConstellationGenerator {
    fn default() -> Self {
        ConstellationGenerator {
            clock: Default::default(),
            start: Default::default(),
            n: Default::default(),
            first_files: Default::default(),
            job: Default::default(),
            weight_log2: Default::default(),
            valid: Default::default(),
            ready: Default::default(),
            done: Default::default(),
            last: Default::default(),
            three_n: Default::default(),
            enumerating: Default::default(),
            untried: Default::default(),
            offered: Default::default(),
            offered_valid: Default::default(),
            issuing: Default::default(),
            candidate: Default::default(),
            reflected: Default::default(),
            symmetry: Default::default(),
            image_valid: Default::default(),
            image_first: Default::default(),
            image_last: Default::default(),
            image: Default::default(),
            image_below: Default::default(),
            image_equal: Default::default(),
            far_valid: Default::default(),
            far_first: Default::default(),
            far_last: Default::default(),
            far_image: Default::default(),
            far_below: Default::default(),
            far_equal: Default::default(),
            a_apart: Default::default(),
            b_apart: Default::default(),
            i_apart: Default::default(),
            j_apart: Default::default(),
            key_valid: Default::default(),
            key_first: Default::default(),
            key_last: Default::default(),
            key_below: Default::default(),
            key_equal: Default::default(),
            key: Default::default(),
            canonical: Default::default(),
            same: Default::default(),
            best: Default::default(),
            out_valid: Default::default(),
            out_job: Default::default(),
            out_weight_log2: Default::default(),
            zero: Constant::new(0.into()),
            ui: Default::default(),
            uj: Default::default(),
            ua: Default::default(),
            ub: Default::default(),
            queen_pairs: Default::default(),
            wanted: Default::default(),
            i: Default::default(),
            j: Default::default(),
            a: Default::default(),
            b: Default::default(),
            ri: Default::default(),
            rj: Default::default(),
            ra: Default::default(),
            rb: Default::default(),
            image_i: Default::default(),
            image_j: Default::default(),
            image_a: Default::default(),
            image_b: Default::default(),
            issued_image: Default::default(),
            image_distances: Default::default(),
            image_cost: Default::default(),
            canonical_now: Default::default(),
            same_now: Default::default(),
            best_now: Default::default(),
            hold: Default::default(),
            take: Default::default(),
            leave: Default::default(),
        }
    }
}

impl Logic for ConstellationGenerator {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last, three_n, enumerating, untried, offered, offered_valid, issuing, candidate);
        dff_setup!(self, clock, symmetry, image_valid, image_first, image_last, image, image_below, image_equal);
        dff_setup!(self, clock, far_valid, far_first, far_last, far_image, far_below, far_equal);
        dff_setup!(self, clock, key_valid, key_first, key_last, key_below, key_equal, key, canonical, same, best);
        dff_setup!(self, clock, out_valid, out_job, out_weight_log2, reflected, a_apart, b_apart, i_apart, j_apart);
        self.job.next = self.out_job.q.val();
        self.weight_log2.next = self.out_weight_log2.q.val();
        self.valid.next = self.out_valid.q.val();
        self.done.next = !self.enumerating.q.val()
            & !self.offered_valid.q.val()
            & !self.issuing.q.val()
            & !self.image_valid.q.val()
            & !self.far_valid.q.val()
            & !self.key_valid.q.val()
            & !self.out_valid.q.val();
        // (From registers only: it gates every stage's registers.)
        self.hold.next = self.key_valid.q.val() & self.key_last.q.val() & self.out_valid.q.val();

        // Enumerate. A candidate is taken if consistent (a corner's queen named by both its edges;
        // (0, i), (m, j), (a, 0), (b, m) attacking none of the others) and i is a first file asked for.
        self.ui.next = self.untried.q.val().get_bits::<5>(15);
        self.uj.next = self.untried.q.val().get_bits::<5>(10);
        self.ua.next = self.untried.q.val().get_bits::<5>(5);
        self.ub.next = self.untried.q.val().get_bits::<5>(0);
        self.queen_pairs[0].rank.next = self.zero.val();
        self.queen_pairs[0].file.next = self.ui.val();
        self.queen_pairs[0].other_rank.next = self.last.q.val();
        self.queen_pairs[0].other_file.next = self.uj.val();
        self.queen_pairs[1].rank.next = self.zero.val();
        self.queen_pairs[1].file.next = self.ui.val();
        self.queen_pairs[1].other_rank.next = self.ua.val();
        self.queen_pairs[1].other_file.next = self.zero.val();
        self.queen_pairs[2].rank.next = self.zero.val();
        self.queen_pairs[2].file.next = self.ui.val();
        self.queen_pairs[2].other_rank.next = self.ub.val();
        self.queen_pairs[2].other_file.next = self.last.q.val();
        self.queen_pairs[3].rank.next = self.last.q.val();
        self.queen_pairs[3].file.next = self.uj.val();
        self.queen_pairs[3].other_rank.next = self.ua.val();
        self.queen_pairs[3].other_file.next = self.zero.val();
        self.queen_pairs[4].rank.next = self.last.q.val();
        self.queen_pairs[4].file.next = self.uj.val();
        self.queen_pairs[4].other_rank.next = self.ub.val();
        self.queen_pairs[4].other_file.next = self.last.q.val();
        self.queen_pairs[5].rank.next = self.ua.val();
        self.queen_pairs[5].file.next = self.zero.val();
        self.queen_pairs[5].other_rank.next = self.ub.val();
        self.queen_pairs[5].other_file.next = self.last.q.val();
        self.wanted.next = ((self.ui.val() == self.zero.val()) == (self.ua.val() == self.zero.val()))
            & ((self.ui.val() == self.last.q.val()) == (self.ub.val() == self.zero.val()))
            & ((self.uj.val() == self.zero.val()) == (self.ua.val() == self.last.q.val()))
            & ((self.uj.val() == self.last.q.val()) == (self.ub.val() == self.last.q.val()))
            & !self.queen_pairs[0].attack.val()
            & !self.queen_pairs[1].attack.val()
            & !self.queen_pairs[2].attack.val()
            & !self.queen_pairs[3].attack.val()
            & !self.queen_pairs[4].attack.val()
            & !self.queen_pairs[5].attack.val()
            & (self.first_files.val() & (bits::<32>(1) << self.ui.val())).any();

        // Issue: the offered candidate is taken after the last image of the
        // one before, or as soon as an image shows that one no job. (All
        // stages move together, so while the cost stage holds a candidate's
        // image other than its last, the issue stage holds the same
        // candidate's next.)
        self.leave.next = self.image_valid.q.val() & self.image_below.q.val() & !self.image_last.q.val();
        self.take.next = !self.hold.val() & (!self.issuing.q.val() | (self.symmetry.q.val() == 7) | self.leave.val());
        if self.take.val() | !self.offered_valid.q.val() {
            self.offered.d.next = self.untried.q.val();
            self.offered_valid.d.next = self.enumerating.q.val() & self.wanted.val();
            // The next candidate: b fastest, then a, j, i, each 0..=m.
            if self.ub.val() != self.last.q.val() {
                self.untried.d.next = self.untried.q.val() + 1;
            } else if self.ua.val() != self.last.q.val() {
                self.untried.d.next = self.untried.q.val() + 32 - bit_cast::<TUPLE_BITS, 5>(self.last.q.val());
            } else if self.uj.val() != self.last.q.val() {
                self.untried.d.next = (self.untried.q.val() & 0xF_FC00) + 0x400;
            } else if self.ui.val() != self.last.q.val() {
                self.untried.d.next = (self.untried.q.val() & 0xF_8000) + 0x8000;
            } else {
                self.enumerating.d.next = false;
            }
        }
        if !self.hold.val() {
            self.symmetry.d.next = self.symmetry.q.val() + 1;
        }
        if self.take.val() {
            self.issuing.d.next = self.offered_valid.q.val();
            self.candidate.d.next = self.offered.q.val();
            self.reflected.d.next =
                (bit_cast::<TUPLE_BITS, 5>(self.last.q.val() - self.offered.q.val().get_bits::<5>(15)) << 15)
                    | (bit_cast::<TUPLE_BITS, 5>(self.last.q.val() - self.offered.q.val().get_bits::<5>(10)) << 10)
                    | (bit_cast::<TUPLE_BITS, 5>(self.last.q.val() - self.offered.q.val().get_bits::<5>(5)) << 5)
                    | bit_cast::<TUPLE_BITS, 5>(self.last.q.val() - self.offered.q.val().get_bits::<5>(0));
            self.symmetry.d.next = 0.into();
        }

        // This clock's image: its four numbers, then packed.
        self.i.next = self.candidate.q.val().get_bits::<5>(15);
        self.j.next = self.candidate.q.val().get_bits::<5>(10);
        self.a.next = self.candidate.q.val().get_bits::<5>(5);
        self.b.next = self.candidate.q.val().get_bits::<5>(0);
        self.ri.next = self.reflected.q.val().get_bits::<5>(15);
        self.rj.next = self.reflected.q.val().get_bits::<5>(10);
        self.ra.next = self.reflected.q.val().get_bits::<5>(5);
        self.rb.next = self.reflected.q.val().get_bits::<5>(0);
        self.image_i.next = self.i.val();
        self.image_j.next = self.j.val();
        self.image_a.next = self.a.val();
        self.image_b.next = self.b.val();
        match self.symmetry.q.val().index() {
            1 => {
                // The files mirrored.
                self.image_i.next = self.ri.val();
                self.image_j.next = self.rj.val();
                self.image_a.next = self.b.val();
                self.image_b.next = self.a.val();
            }
            2 => {
                // The ranks mirrored.
                self.image_i.next = self.j.val();
                self.image_j.next = self.i.val();
                self.image_a.next = self.ra.val();
                self.image_b.next = self.rb.val();
            }
            3 => {
                // The half turn.
                self.image_i.next = self.rj.val();
                self.image_j.next = self.ri.val();
                self.image_a.next = self.rb.val();
                self.image_b.next = self.ra.val();
            }
            4 => {
                // Ranks and files swapped.
                self.image_i.next = self.a.val();
                self.image_j.next = self.b.val();
                self.image_a.next = self.i.val();
                self.image_b.next = self.j.val();
            }
            5 => {
                // The mirror in the other diagonal.
                self.image_i.next = self.rb.val();
                self.image_j.next = self.ra.val();
                self.image_a.next = self.rj.val();
                self.image_b.next = self.ri.val();
            }
            6 => {
                // A quarter turn.
                self.image_i.next = self.ra.val();
                self.image_j.next = self.rb.val();
                self.image_a.next = self.j.val();
                self.image_b.next = self.i.val();
            }
            7 => {
                // The other quarter turn.
                self.image_i.next = self.b.val();
                self.image_j.next = self.a.val();
                self.image_a.next = self.ri.val();
                self.image_b.next = self.rj.val();
            }
            _ => {}
        }
        self.issued_image.next = (bit_cast::<TUPLE_BITS, 5>(self.image_i.val()) << 15)
            | (bit_cast::<TUPLE_BITS, 5>(self.image_j.val()) << 10)
            | (bit_cast::<TUPLE_BITS, 5>(self.image_a.val()) << 5)
            | bit_cast::<TUPLE_BITS, 5>(self.image_b.val());
        if !self.hold.val() {
            self.image_valid.d.next = self.issuing.q.val();
            self.image_first.d.next = self.symmetry.q.val() == 0;
            self.image_last.d.next = self.symmetry.q.val() == 7;
            self.image.d.next = self.issued_image.val();
            self.image_below.d.next = self.issued_image.val() < self.candidate.q.val();
            self.image_equal.d.next = self.issued_image.val() == self.candidate.q.val();
        }

        // Distances.
        self.image_distances.image.next = self.image.q.val();
        self.image_distances.last.next = bit_cast::<12, 5>(self.last.q.val());
        self.image_distances.three_n.next = bit_cast::<12, 8>(self.three_n.q.val());
        if !self.hold.val() {
            self.far_valid.d.next = self.image_valid.q.val();
            self.far_first.d.next = self.image_first.q.val();
            self.far_last.d.next = self.image_last.q.val();
            self.far_image.d.next = self.image.q.val();
            self.far_below.d.next = self.image_below.q.val();
            self.far_equal.d.next = self.image_equal.q.val();
            self.a_apart.d.next = self.image_distances.a_apart.val();
            self.b_apart.d.next = self.image_distances.b_apart.val();
            self.i_apart.d.next = self.image_distances.i_apart.val();
            self.j_apart.d.next = self.image_distances.j_apart.val();
        }

        // Cost.
        self.image_cost.image.next = self.far_image.q.val();
        self.image_cost.last.next = bit_cast::<12, 5>(self.last.q.val());
        self.image_cost.a_apart.next = self.a_apart.q.val();
        self.image_cost.b_apart.next = self.b_apart.q.val();
        self.image_cost.i_apart.next = self.i_apart.q.val();
        self.image_cost.j_apart.next = self.j_apart.q.val();
        if !self.hold.val() {
            self.key_valid.d.next = self.far_valid.q.val();
            self.key_first.d.next = self.far_first.q.val();
            self.key_last.d.next = self.far_last.q.val();
            self.key_below.d.next = self.far_below.q.val();
            self.key_equal.d.next = self.far_equal.q.val();
            self.key.d.next = self.image_cost.key.val();
        }

        // Compare: the images so far, this one included (the first, the
        // candidate itself, starts them).
        self.canonical_now.next = (self.canonical.q.val() | self.key_first.q.val()) & !self.key_below.q.val();
        self.same_now.next = self.same.q.val();
        if self.key_equal.q.val() {
            self.same_now.next = self.same.q.val() + 1;
        }
        if self.key_first.q.val() {
            self.same_now.next = 1.into();
        }
        self.best_now.next = self.best.q.val();
        if self.key_first.q.val() | (self.key.q.val() < self.best.q.val()) {
            self.best_now.next = self.key.q.val();
        }
        if self.ready.val() {
            self.out_valid.d.next = false;
        }
        if self.key_valid.q.val() & !self.hold.val() {
            self.canonical.d.next = self.canonical_now.val();
            self.same.d.next = self.same_now.val();
            self.best.d.next = self.best_now.val();
            if self.key_last.q.val() {
                self.out_valid.d.next = self.canonical_now.val();
                self.out_job.d.next = self.best_now.val().get_bits::<TUPLE_BITS>(0);
                // The weight is 8 over the images equal to the constellation.
                self.out_weight_log2.d.next = 3.into();
                if self.same_now.val() == 2 {
                    self.out_weight_log2.d.next = 2.into();
                }
                if self.same_now.val() == 4 {
                    self.out_weight_log2.d.next = 1.into();
                }
                if self.same_now.val() == 8 {
                    self.out_weight_log2.d.next = 0.into();
                }
            }
        }

        if self.start.val() {
            self.last.d.next = self.n.val().get_bits::<5>(0) - 1;
            self.three_n.d.next = (self.n.val() << 1) + self.n.val();
            self.untried.d.next = 0.into();
            self.enumerating.d.next = true;
            self.offered_valid.d.next = false;
            self.issuing.d.next = false;
            self.image_valid.d.next = false;
            self.far_valid.d.next = false;
            self.key_valid.d.next = false;
            self.out_valid.d.next = false;
        }
    }
}

/// Whether two queens attack each other (the same queen does not).
#[derive(LogicBlock, Default)]
pub struct QueenPair {
    pub rank: Signal<In, Bits<5>>,
    pub file: Signal<In, Bits<5>>,
    pub other_rank: Signal<In, Bits<5>>,
    pub other_file: Signal<In, Bits<5>>,
    pub attack: Signal<Out, bool>,
    ranks_apart: Signal<Local, Bits<5>>,
    files_apart: Signal<Local, Bits<5>>,
}

impl Logic for QueenPair {
    #[hdl_gen]
    fn update(&mut self) {
        self.ranks_apart.next = self.rank.val() - self.other_rank.val();
        if self.other_rank.val() > self.rank.val() {
            self.ranks_apart.next = self.other_rank.val() - self.rank.val();
        }
        self.files_apart.next = self.file.val() - self.other_file.val();
        if self.other_file.val() > self.file.val() {
            self.files_apart.next = self.other_file.val() - self.file.val();
        }
        self.attack.next = !((self.rank.val() == self.other_rank.val()) & (self.file.val() == self.other_file.val()))
            & ((self.rank.val() == self.other_rank.val())
                | (self.file.val() == self.other_file.val())
                | (self.ranks_apart.val() == self.files_apart.val()));
    }
}

/// How far an image's edge queens are from the board's middle, the terms
/// of its cost estimate (`Constellation::estimated_cost`): |5a - 3N|,
/// |5b - 3N|, |2i - m|, |2j - m|.
#[derive(LogicBlock, Default)]
pub struct ImageDistances {
    pub image: Signal<In, Bits<TUPLE_BITS>>,
    /// m = N - 1, and 3N.
    pub last: Signal<In, Bits<12>>,
    pub three_n: Signal<In, Bits<12>>,
    pub a_apart: Signal<Out, Bits<12>>,
    pub b_apart: Signal<Out, Bits<12>>,
    pub i_apart: Signal<Out, Bits<12>>,
    pub j_apart: Signal<Out, Bits<12>>,
    two_i: Signal<Local, Bits<12>>,
    two_j: Signal<Local, Bits<12>>,
    five_a: Signal<Local, Bits<12>>,
    five_b: Signal<Local, Bits<12>>,
}

impl Logic for ImageDistances {
    #[hdl_gen]
    fn update(&mut self) {
        self.two_i.next = bit_cast::<12, 5>(self.image.val().get_bits::<5>(15)) << 1;
        self.two_j.next = bit_cast::<12, 5>(self.image.val().get_bits::<5>(10)) << 1;
        self.five_a.next = (bit_cast::<12, 5>(self.image.val().get_bits::<5>(5)) << 2)
            + bit_cast::<12, 5>(self.image.val().get_bits::<5>(5));
        self.five_b.next = (bit_cast::<12, 5>(self.image.val().get_bits::<5>(0)) << 2)
            + bit_cast::<12, 5>(self.image.val().get_bits::<5>(0));
        self.a_apart.next = self.five_a.val() - self.three_n.val();
        if self.three_n.val() > self.five_a.val() {
            self.a_apart.next = self.three_n.val() - self.five_a.val();
        }
        self.b_apart.next = self.five_b.val() - self.three_n.val();
        if self.three_n.val() > self.five_b.val() {
            self.b_apart.next = self.three_n.val() - self.five_b.val();
        }
        self.i_apart.next = self.two_i.val() - self.last.val();
        if self.last.val() > self.two_i.val() {
            self.i_apart.next = self.last.val() - self.two_i.val();
        }
        self.j_apart.next = self.two_j.val() - self.last.val();
        if self.last.val() > self.two_j.val() {
            self.j_apart.next = self.last.val() - self.two_j.val();
        }
    }
}

/// An image's key for the choice of the image to search: its cost estimate
/// (`Constellation::estimated_cost` over 20, plus 5m so that it is never
/// negative: the order is the same) above its four numbers.
#[derive(LogicBlock, Default)]
pub struct ImageCost {
    pub image: Signal<In, Bits<TUPLE_BITS>>,
    /// m = N - 1.
    pub last: Signal<In, Bits<12>>,
    /// The image's [`ImageDistances`].
    pub a_apart: Signal<In, Bits<12>>,
    pub b_apart: Signal<In, Bits<12>>,
    pub i_apart: Signal<In, Bits<12>>,
    pub j_apart: Signal<In, Bits<12>>,
    pub key: Signal<Out, Bits<32>>,
    cost: Signal<Local, Bits<12>>,
}

impl Logic for ImageCost {
    #[hdl_gen]
    fn update(&mut self) {
        self.cost.next = ((self.a_apart.val() + self.b_apart.val()) << 1)
            + (self.i_apart.val() << 2)
            + self.i_apart.val()
            + (self.last.val() << 2)
            + self.last.val()
            - (self.j_apart.val() << 2)
            - self.j_apart.val();
        self.key.next = (bit_cast::<32, 12>(self.cost.val()) << 20) | bit_cast::<32, TUPLE_BITS>(self.image.val());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights_model::queens::constellations::{constellations, constellations_from, WeightedConstellation};
    use std::sync::{Arc, Mutex};

    /// Runs the generator for `n`, taking a job only every third clock.
    /// The jobs the generator makes for `n`, the canonical images' first
    /// rank's queens on `files`.
    fn generated(n: u8, files: std::ops::Range<u8>) -> Vec<(u64, u64)> {
        let mut uut = ConstellationGenerator::default();
        uut.connect_all();
        let jobs = Arc::new(Mutex::new(Vec::new()));
        let out = jobs.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<ConstellationGenerator>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<ConstellationGenerator>| {
            let mut x = sim.init()?;
            wait_clock_true!(sim, clock, x);
            x.n.next = u64::from(n).into();
            x.first_files.next = files.clone().map(|f| 1u64 << f).sum::<u64>().into();
            x.start.next = true;
            wait_clock_cycle!(sim, clock, x);
            x.start.next = false;
            let tries = 8 * u64::from(n).pow(4);
            for clock in 0..tries * 3 + 100 {
                x.ready.next = clock % 3 == 0;
                wait_clock_false!(sim, clock, x);
                if x.valid.val() & x.ready.val() {
                    out.lock().unwrap().push((x.job.val().index() as u64, 1u64 << x.weight_log2.val().index()));
                }
                if x.done.val() {
                    break;
                }
                wait_clock_true!(sim, clock, x);
            }
            sim_assert!(sim, x.done.val(), x);
            sim.done(x)
        });
        sim.run(Box::new(uut), 100_000_000).unwrap();
        let jobs = std::mem::take(&mut *jobs.lock().unwrap());
        jobs
    }

    #[test]
    fn makes_the_references_jobs_in_its_order() {
        let tuples = |classes: Vec<WeightedConstellation>| -> Vec<(u64, u64)> {
            classes
                .iter()
                .map(|w| {
                    let c = w.constellation;
                    let tuple = (u64::from(c.first_rank_file) << 15)
                        | (u64::from(c.last_rank_file) << 10)
                        | (u64::from(c.first_file_rank) << 5)
                        | u64::from(c.last_file_rank);
                    (tuple, w.weight)
                })
                .collect()
        };
        for n in 1u8..=10 {
            assert_eq!(generated(n, 0..n), tuples(constellations(n).unwrap()), "N = {n}");
        }
        // A part of the count: the classes whose canonical image has its
        // first rank's queen on files 1 and 2, as the reference's part.
        let part = constellations_from(9, 1..3).unwrap();
        assert!(!part.is_empty() && part.len() < constellations(9).unwrap().len());
        assert_eq!(generated(9, 1..3), tuples(part));
    }
}

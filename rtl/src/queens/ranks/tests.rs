//! The pipeline against the reference's order of nodes, both searches.

use super::*;
use knights_model::queens::constellations::{constellations, Constellation};

/// Every node of the N-queens tree in search order, as (rank, file).
fn nodes_in_order(n: usize, placed: &mut Vec<usize>, out: &mut Vec<(usize, usize)>) {
    let rank = placed.len();
    for file in 0..n {
        let free = placed.iter().enumerate().all(|(r, &f)| f != file && f.abs_diff(file) != rank - r);
        if free {
            out.push((rank, file));
            placed.push(file);
            if rank + 1 < n {
                nodes_in_order(n, placed, out);
            }
            placed.pop();
        }
    }
}

/// A constellation job's steps in the reference's order (its
/// `ConstellationSearch`): each queen placed as (rank, file, whether it
/// is an edge's queen passed through), up to the rank below the last.
fn constellation_steps(n: usize, constellation: Constellation) -> Vec<(usize, usize, bool)> {
    let full = (1u64 << n) - 1;
    let mut edge_file = vec![None; n];
    let mut taken = vec![0u64; n];
    for (queen_rank, file) in constellation.queens(n as u8) {
        let (queen_rank, file) = (usize::from(queen_rank), i64::from(file));
        edge_file[queen_rank] = Some(file as usize);
        for (rank, taken) in taken.iter_mut().enumerate() {
            let apart = (rank as i64 - queen_rank as i64).abs();
            for square in [file - apart, file, file + apart] {
                if (0..n as i64).contains(&square) {
                    *taken |= 1 << square;
                }
            }
        }
    }
    fn below(
        rank: usize,
        n: usize,
        placed: u64,
        edge_file: &[Option<usize>],
        taken: &[u64],
        full: u64,
        out: &mut Vec<(usize, usize, bool)>,
    ) {
        if rank + 1 == n {
            return;
        }
        if let Some(file) = edge_file[rank] {
            out.push((rank, file, true));
            return below(rank + 1, n, placed, edge_file, taken, full, out);
        }
        for file in 0..n {
            let attacked = (0..rank).any(|r| {
                let on = (placed >> (5 * r)) & 31;
                edge_file[r].is_none() && (on as usize == file || (on as usize).abs_diff(file) == rank - r)
            });
            if full >> file & 1 == 1 && taken[rank] >> file & 1 == 0 && !attacked {
                out.push((rank, file, false));
                below(rank + 1, n, placed | (file as u64) << (5 * rank), edge_file, taken, full, out);
            }
        }
    }
    let mut out = Vec::new();
    below(0, n, 0, &edge_file, &taken, full, &mut out);
    out
}

/// Constellation jobs: each search takes every class of N's
/// constellations (the image the reference searches), one after the
/// other, each from a root, and places its queens in the reference's
/// order, the edges' queens passed through and flagged, the last rank
/// never entered (a queen on the rank below it is a solution). Search
/// 1 starts later and pauses every third turn.
#[test]
fn constellation_jobs_place_the_inner_queens_in_order() {
    const NB: usize = 8;
    type Pipeline = RankPipeline<NB, { 4 * NB }, 4>;
    for n in [4usize, 5, 6, 7, 8] {
        let jobs: Vec<Constellation> =
            constellations(n as u8).unwrap().into_iter().map(|weighted| weighted.constellation).collect();
        let expected: Vec<Vec<(usize, usize, bool)>> =
            jobs.iter().map(|&constellation| constellation_steps(n, constellation)).collect();
        let mut uut = Pipeline::new(true);
        uut.connect_all();
        let result = std::sync::Arc::new(std::sync::Mutex::new(Default::default()));
        let out = result.clone();
        let job_list = jobs.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Pipeline>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Pipeline>| {
            let mut x = sim.init()?;
            x.full.next = ((1u64 << n) - 1).into();
            x.first_files.next = 0.into();
            // The rank below the last is the last entered.
            x.last_slot.next = (1u64 << (NB + 1 - n)).into();
            x.n.next = (n as u64).into();
            // Per search: the job it is on (None: to root the next), its steps.
            let mut job: [Option<usize>; 2] = [None, None];
            let mut next_job = [0usize, 0];
            let mut steps: [Vec<Vec<(usize, usize, bool)>>; 2] = Default::default();
            let mut turns = [0usize; 2];
            let mut placing = None;
            let mut clocks = 0;
            while (next_job[0] < job_list.len() || job[0].is_some() || next_job[1] < job_list.len() || job[1].is_some())
                && clocks < 1_000_000
            {
                for i in 0..2 {
                    x.searches[i].root.next = false;
                    x.searches[i].place.next = false;
                    x.searches[i].forced.next = false;
                    x.searches[i].open_child.next = true;
                }
                let s = if x.searches[0].turn.val() { 0 } else { 1 };
                match job[s] {
                    None if next_job[s] < job_list.len() && clocks >= 9 * s => {
                        let c = job_list[next_job[s]];
                        x.searches[s].edges.next = true;
                        x.searches[s].first_rank_file.next = u64::from(c.first_rank_file).into();
                        x.searches[s].last_rank_file.next = u64::from(c.last_rank_file).into();
                        x.searches[s].first_file_rank.next = u64::from(c.first_file_rank).into();
                        x.searches[s].last_file_rank.next = u64::from(c.last_file_rank).into();
                        x.searches[s].root.next = true;
                        x.searches[s].root_open.next = true;
                        job[s] = Some(next_job[s]);
                        next_job[s] += 1;
                        steps[s].push(Vec::new());
                    }
                    Some(_) if !x.searches[s].searching.val() => job[s] = None,
                    Some(_) => {
                        turns[s] += 1;
                        if s == 0 || turns[s] % 3 != 2 {
                            x.searches[s].place.next = true;
                            let rank = x.searches[s].rank.val().to_u64() as usize;
                            sim_assert_eq!(sim, x.searches[s].at_last_rank.val(), rank + 2 == n, x);
                            placing = Some((s, rank, x.searches[s].at_edge_rank.val()));
                        }
                    }
                    _ => {}
                }
                wait_clock_cycle!(sim, clock, x);
                clocks += 1;
                if let Some((s, rank, pass)) = placing.take() {
                    sim_assert_eq!(sim, x.searches[s].placed_rank.val().to_u64() as usize, rank, x);
                    let file = x.searches[s].placed_file.val().to_u64() as usize;
                    steps[s].last_mut().unwrap().push((rank, file, pass));
                }
            }
            *out.lock().unwrap() = steps;
            sim.done(x)
        });
        sim.run(Box::new(uut), 100_000_000).unwrap();
        let steps: [Vec<Vec<(usize, usize, bool)>>; 2] = std::mem::take(&mut *result.lock().unwrap());
        for (s, search_steps) in steps.iter().enumerate() {
            assert_eq!(search_steps.len(), jobs.len(), "N = {n}, search {s}: every job");
            for (k, (got, want)) in search_steps.iter().zip(&expected).enumerate() {
                assert_eq!(got, want, "N = {n}, search {s}, job {k} ({:?})", jobs[k]);
            }
        }
    }
}

/// Both searches walk the whole tree from the root in the reference's
/// order, backtracks included, a queen in each of their turns, and then
/// stop searching: search 0 without a pause, search 1 started later and
/// pausing (no queen in every third turn, and none for three turns after
/// a solution), so each keeps its state while the other runs. The
/// build's largest board (8) is among them.
#[test]
fn both_searches_place_every_node_in_order_one_a_turn() {
    const NB: usize = 8;
    type Pipeline = RankPipeline<NB, { 4 * NB }, 4>;
    #[derive(Clone, Copy, PartialEq)]
    enum Stage {
        Waiting,
        Rooted,
        Stopped,
    }
    for n in [1usize, 4, 5, 6, 8] {
        let mut expected = Vec::new();
        nodes_in_order(n, &mut Vec::new(), &mut expected);
        let mut uut = Pipeline::new(false);
        uut.connect_all();
        let result = std::sync::Arc::new(std::sync::Mutex::new(Default::default()));
        let out = result.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Pipeline>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Pipeline>| {
            let mut x = sim.init()?;
            x.full.next = ((1u64 << n) - 1).into();
            x.first_files.next = ((1u64 << n) - 1).into();
            x.last_slot.next = (1u64 << (NB - n)).into();
            let start_at = [0, 9];
            let mut stage = [Stage::Waiting; 2];
            let mut nodes: [Vec<(usize, usize)>; 2] = Default::default();
            let mut turns = [0usize; 2];
            let mut rest = 0;
            let mut placing = None;
            let mut clocks = 0;
            while stage != [Stage::Stopped; 2] && clocks < 100_000 {
                for i in 0..2 {
                    x.searches[i].root.next = false;
                    x.searches[i].root_open.next = true;
                    x.searches[i].place.next = false;
                    x.searches[i].forced.next = false;
                    x.searches[i].open_child.next = true;
                }
                let s = if x.searches[0].turn.val() { 0 } else { 1 };
                sim_assert!(sim, x.searches[s].turn.val() && !x.searches[1 - s].turn.val(), x);
                match stage[s] {
                    Stage::Waiting if clocks >= start_at[s] => {
                        x.searches[s].root.next = true;
                        stage[s] = Stage::Rooted;
                    }
                    Stage::Rooted if !x.searches[s].searching.val() => stage[s] = Stage::Stopped,
                    Stage::Rooted => {
                        let rank = x.searches[s].rank.val().to_u64() as usize;
                        sim_assert_eq!(sim, x.searches[s].at_last_rank.val(), rank + 1 == n, x);
                        turns[s] += 1;
                        let pause = s == 1 && (turns[s] % 3 == 2 || rest > 0);
                        if s == 1 {
                            rest = usize::saturating_sub(rest, 1);
                        }
                        if !pause {
                            x.searches[s].place.next = true;
                            placing = Some((s, x.searches[s].rank.val().to_u64() as usize));
                        }
                    }
                    _ => {}
                }
                wait_clock_cycle!(sim, clock, x);
                clocks += 1;
                // The queen's rank and file come in the clock after.
                if let Some((s, rank)) = placing.take() {
                    sim_assert_eq!(sim, x.searches[s].placed_rank.val().to_u64() as usize, rank, x);
                    nodes[s].push((rank, x.searches[s].placed_file.val().to_u64() as usize));
                    if s == 1 && rank + 1 == n {
                        rest = 3;
                    }
                }
            }
            *out.lock().unwrap() = (nodes, turns[0]);
            sim.done(x)
        });
        sim.run(Box::new(uut), 10_000_000).unwrap();
        let (nodes, turns): ([Vec<(usize, usize)>; 2], usize) = std::mem::take(&mut *result.lock().unwrap());
        assert_eq!(nodes[0], expected, "N = {n}, search 0");
        assert_eq!(nodes[1], expected, "N = {n}, search 1");
        assert_eq!(turns, expected.len(), "N = {n}: a queen in every turn of search 0");
    }
}

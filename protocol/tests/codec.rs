//! Property tests of the frame decoder: it never panics on any byte stream,
//! and it recovers every frame that noise did not touch.

use knights_protocol::codec::{Command, Counters, ErrorCode, Identity, Response, SolveRequest, OVERHEAD};
use knights_protocol::decoder::FrameDecoder;
use knights_protocol::{length, SYNC};
use proptest::prelude::*;

const MAX_PAYLOAD: usize = 265;

fn counters() -> impl Strategy<Value = Counters> {
    let u48 = 0u64..1 << 48;
    (u48.clone(), u48.clone(), u48.clone(), u48).prop_map(|(tours, nodes, cycles, engine_cycles)| Counters {
        tours,
        nodes,
        cycles,
        engine_cycles,
    })
}

fn response() -> impl Strategy<Value = Response> {
    prop_oneof![
        (any::<[u8; 4]>(), any::<u32>(), any::<u32>(), any::<[bool; 5]>(), any::<u32>()).prop_map(
            |(b, clock_hz, baud, features, build_id)| {
                Response::Identity(Identity {
                    version: b[0],
                    max_width: b[1],
                    max_height: b[2],
                    engines: b[3],
                    clock_hz,
                    baud,
                    warnsdorff: features[0],
                    prune: features[1],
                    queens: features[2],
                    constellations: features[3],
                    interleaved: features[4],
                    build_id,
                })
            }
        ),
        any::<u8>().prop_map(|command| Response::Ack { command }),
        (any::<u32>(), any::<u8>(), any::<u32>(), proptest::collection::vec(any::<u8>(), 0..=256))
            .prop_map(|(sequence, engine, job, squares)| Response::Tour { sequence, engine, job, squares }),
        (any::<bool>(), counters()).prop_map(|(searching, counters)| Response::Progress { searching, counters }),
        (any::<u8>(), counters()).prop_map(|(status, counters)| Response::Done { status, counters }),
        (any::<u8>(), any::<u8>())
            .prop_map(|(code, command)| Response::Error { code: ErrorCode::from_byte(code), command }),
    ]
}

fn decode_all(decoder: &mut FrameDecoder) -> Vec<Response> {
    let mut out = Vec::new();
    while let Some(frame) = decoder.next_frame() {
        if let Ok(response) = frame {
            out.push(response);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..3000), cut in 1usize..64) {
        let mut decoder = FrameDecoder::new(MAX_PAYLOAD);
        for chunk in bytes.chunks(cut) {
            decoder.push(chunk);
            let _ = decode_all(&mut decoder);
        }
        while decoder.pending() > 0 {
            decoder.drop_incomplete();
            let _ = decode_all(&mut decoder);
        }
        prop_assert!(decoder.skipped() <= bytes.len() as u64);
    }

    #[test]
    fn frames_between_sync_free_noise_all_decode(
        frames in proptest::collection::vec((response(), proptest::collection::vec(any::<u8>(), 0..20)), 0..12),
        cut in 1usize..40,
    ) {
        let mut stream = Vec::new();
        for (response, noise) in &frames {
            stream.extend(noise.iter().map(|&b| if b == SYNC { 0 } else { b }));
            stream.extend(response.encode());
        }
        let mut decoder = FrameDecoder::new(MAX_PAYLOAD);
        let mut decoded = Vec::new();
        for chunk in stream.chunks(cut) {
            decoder.push(chunk);
            decoded.extend(decode_all(&mut decoder));
        }
        let expected: Vec<Response> = frames.into_iter().map(|(r, _)| r).collect();
        prop_assert_eq!(decoded, expected);
    }

    #[test]
    fn after_any_noise_and_a_quiet_line_the_next_frames_decode(
        noise in proptest::collection::vec(any::<u8>(), 0..300),
        frames in proptest::collection::vec(response(), 1..6),
    ) {
        let mut decoder = FrameDecoder::new(MAX_PAYLOAD);
        decoder.push(&noise);
        let _ = decode_all(&mut decoder);
        // The line goes quiet: whatever is left was not a frame.
        while decoder.pending() > 0 {
            decoder.drop_incomplete();
            let _ = decode_all(&mut decoder);
        }
        for response in &frames {
            decoder.push(&response.encode());
        }
        prop_assert_eq!(decode_all(&mut decoder), frames);
    }

    #[test]
    fn a_stray_sync_byte_before_frames_costs_none_of_them(frames in proptest::collection::vec(response(), 1..6)) {
        // A sync byte from noise whose length runs past the frames the
        // device sent after it (so it never ends, and no CRC of it can
        // pass by chance); then the line goes quiet.
        const LONG: u16 = 4000;
        let mut decoder = FrameDecoder::new(usize::from(LONG));
        decoder.push(&[SYNC, LONG as u8, (LONG >> 8) as u8]);
        for response in &frames {
            decoder.push(&response.encode());
        }
        let mut decoded = decode_all(&mut decoder);
        while decoder.pending() > 0 && decoder.skip_noise_before_a_whole_frame() {
            decoded.extend(decode_all(&mut decoder));
        }
        prop_assert_eq!(decoded, frames);
    }

    #[test]
    fn a_frame_whose_rest_is_late_is_kept_over_a_quiet_line(response in response(), cut in 1usize..20) {
        let bytes = response.encode();
        let cut = cut.min(bytes.len() - 1);
        let mut decoder = FrameDecoder::new(MAX_PAYLOAD);
        decoder.push(&bytes[..cut]);
        prop_assert!(decode_all(&mut decoder).is_empty());
        // The line goes quiet mid-frame: nothing later is a frame, so the
        // front is kept for the rest.
        prop_assert!(!decoder.skip_noise_before_a_whole_frame());
        decoder.push(&bytes[cut..]);
        prop_assert_eq!(decode_all(&mut decoder), vec![response]);
    }
}

#[test]
fn encoded_frames_have_the_protocols_payload_lengths() {
    let solve = Command::Solve(SolveRequest {
        width: 1,
        height: 1,
        file: 0,
        rank: 0,
        closed: false,
        warnsdorff: false,
        prune: true,
        count: true,
        limit: 0,
        split: 0,
        engines: 0,
        path: knights_protocol::codec::MovePath::EMPTY,
    });
    assert_eq!(solve.encode().len() as u64, u64::from(length::SOLVE) + OVERHEAD as u64);
    let progress = Response::Progress { searching: true, counters: Default::default() };
    assert_eq!(progress.encode().len() as u64, u64::from(length::COUNTERS) + OVERHEAD as u64);
    let done = Response::Done { status: 1, counters: Default::default() };
    assert_eq!(done.encode().len() as u64, u64::from(length::COUNTERS) + OVERHEAD as u64);
    let error = Response::Error { code: ErrorCode::Busy, command: 2 };
    assert_eq!(error.encode().len() as u64, u64::from(length::ERROR) + OVERHEAD as u64);
    assert_eq!(Response::Ack { command: 1 }.encode().len() as u64, u64::from(length::ACK) + OVERHEAD as u64);
    let tour = Response::Tour { sequence: 1, engine: 0, job: 0, squares: Vec::new() };
    assert_eq!(tour.encode().len() as u64, u64::from(length::TOUR_HEADER) + OVERHEAD as u64);
}

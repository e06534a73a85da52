//! The keyword prefilter pass: every occurrence of a keyword prefix in the text.
//!
//! One Aho-Corasick DFA holds the prefixes (ASCII case-insensitive). A DFA search is bound by the
//! latency of one table load per byte, because each step needs the previous state. Long texts
//! are therefore cut into [`LANES`] pieces that are scanned in lockstep: the loads of different
//! lanes do not depend on each other, so the processor overlaps them (about 2-3x the
//! throughput of one lane here). Each lane starts `max_pattern_len - 1` bytes before its piece,
//! so a prefix that straddles a cut is found by the lane its last byte belongs to, exactly once.

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind};

/// Independent scans interleaved in one loop.
const LANES: usize = 4;
/// Below this many bytes per lane, one plain scan is cheaper than setting up the lanes.
const MIN_LANE_BYTES: usize = 1024;

/// A keyword prefix occurrence: where it starts and which automaton pattern it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) start: usize,
    pub(crate) pattern: u32,
}

/// The compiled prefix automaton.
pub(crate) struct KeywordAutomaton {
    dfa: DFA,
}

impl KeywordAutomaton {
    pub(crate) fn new(prefixes: &[Vec<u8>]) -> Result<Self, aho_corasick::BuildError> {
        let dfa = aho_corasick::dfa::Builder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            // the lanes are the acceleration; a prefilter would make start states special
            .prefilter(false)
            .build(prefixes)?;
        Ok(Self { dfa })
    }

    /// Every prefix occurrence in `hay`, ordered by end position (as an overlapping search
    /// reports them), overlapping ones included.
    pub(crate) fn hits(&self, hay: &[u8]) -> Vec<Hit> {
        let mut hits = Vec::new();
        let overlap = self.dfa.max_pattern_len().saturating_sub(1);
        let lane_len = hay.len() / LANES;
        if lane_len < MIN_LANE_BYTES.max(overlap + 1) {
            self.scan(self.start_state(), hay, 0, 0, &mut hits);
            return hits;
        }
        // lane k reports hits ending in piece k = [k * lane_len, end_k) and scans from
        // `overlap` bytes earlier so straddling prefixes are seen whole.
        let piece_start = |k: usize| k * lane_len;
        let piece_end = |k: usize| {
            if k + 1 == LANES {
                hay.len()
            } else {
                (k + 1) * lane_len
            }
        };
        let start = self.start_state();
        let mut state = [start; LANES];
        let begin: [usize; LANES] = std::array::from_fn(|k| piece_start(k).saturating_sub(overlap));
        let mut lane_hits: [Vec<Hit>; LANES] = Default::default();
        // lockstep while every lane has bytes left (lane 0 starts at 0, the others `overlap`
        // earlier than their piece, the last one ends at `hay.len()`)
        let steps = (0..LANES)
            .map(|k| piece_end(k) - begin[k])
            .min()
            .expect("LANES > 0");
        let lanes: [&[u8]; LANES] = std::array::from_fn(|k| &hay[begin[k]..begin[k] + steps]);
        // indexing all lanes by one step counter is the point of the loop
        #[allow(clippy::needless_range_loop)]
        for i in 0..steps {
            // the four loads are independent: this is where the speed comes from
            for k in 0..LANES {
                state[k] = self.dfa.next_state(Anchored::No, state[k], lanes[k][i]);
            }
            if state.iter().any(|&sid| self.dfa.is_special(sid)) {
                for k in 0..LANES {
                    if self.dfa.is_special(state[k]) {
                        self.record(
                            state[k],
                            begin[k] + i + 1,
                            piece_start(k),
                            &mut lane_hits[k],
                        );
                    }
                }
            }
        }
        let at: [usize; LANES] = std::array::from_fn(|k| begin[k] + steps);
        for k in 0..LANES {
            self.scan(
                state[k],
                &hay[..piece_end(k)],
                at[k],
                piece_start(k),
                &mut lane_hits[k],
            );
        }
        for lane in lane_hits {
            hits.extend(lane);
        }
        hits
    }

    fn start_state(&self) -> aho_corasick::automaton::StateID {
        self.dfa
            .start_state(Anchored::No)
            .expect("unanchored searches are supported by a DFA built with defaults")
    }

    /// One plain scan of `hay[from..]` from state `sid`, reporting hits that end after
    /// `report_after`.
    fn scan(
        &self,
        mut sid: aho_corasick::automaton::StateID,
        hay: &[u8],
        from: usize,
        report_after: usize,
        hits: &mut Vec<Hit>,
    ) {
        for (pos, &byte) in hay.iter().enumerate().skip(from) {
            sid = self.dfa.next_state(Anchored::No, sid, byte);
            if self.dfa.is_special(sid) {
                self.record(sid, pos + 1, report_after, hits);
            }
        }
    }

    /// Record the patterns of a match state reached just before `end`, if the match ends inside
    /// the lane's own piece (after `piece_start`).
    #[inline]
    fn record(
        &self,
        sid: aho_corasick::automaton::StateID,
        end: usize,
        piece_start: usize,
        hits: &mut Vec<Hit>,
    ) {
        if !self.dfa.is_match(sid) || end <= piece_start {
            return;
        }
        for i in 0..self.dfa.match_len(sid) {
            let pattern = self.dfa.match_pattern(sid, i);
            hits.push(Hit {
                start: end - self.dfa.pattern_len(pattern),
                pattern: pattern.as_u32(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::AhoCorasick;

    fn reference(prefixes: &[Vec<u8>], hay: &[u8]) -> Vec<Hit> {
        let ac = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(prefixes)
            .unwrap();
        ac.find_overlapping_iter(hay)
            .map(|m| Hit {
                start: m.start(),
                pattern: m.pattern().as_u32(),
            })
            .collect()
    }

    #[test]
    fn lanes_find_exactly_what_an_overlapping_search_finds() {
        let prefixes: Vec<Vec<u8>> = ["pass", "sk-", "toke", "ke", "://", "xoxb", "a"]
            .iter()
            .map(|p| p.as_bytes().to_vec())
            .collect();
        let automaton = KeywordAutomaton::new(&prefixes).unwrap();
        // pseudo-random text over a small alphabet so prefixes straddle every lane cut
        let alphabet = b"paskTOKE-:/xob \n";
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in [0, 1, 3, 4095, 4096, 4097, 4099, 10_000, 65_537] {
            let hay: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            assert_eq!(
                automaton.hits(&hay),
                reference(&prefixes, &hay),
                "len {len}"
            );
        }
    }

    #[test]
    fn a_prefix_across_each_cut_is_found_once() {
        let prefixes = vec![b"toke".to_vec()];
        let automaton = KeywordAutomaton::new(&prefixes).unwrap();
        let len = 4 * 4096;
        for cut in [4096usize, 8192, 12288] {
            for shift in 0..4 {
                let mut hay = vec![b' '; len];
                hay[cut - shift..cut - shift + 4].copy_from_slice(b"ToKe");
                let hits = automaton.hits(&hay);
                assert_eq!(hits.len(), 1, "cut {cut} shift {shift}");
                assert_eq!(hits[0].start, cut - shift);
            }
        }
    }
}

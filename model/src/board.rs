//! Board geometry: sizes, squares and their algebraic names.
//!
//! A `W×H` board has `W` files named `a, b, c, …` from left to right and `H`
//! ranks numbered `1, 2, 3, …` from bottom to top, so `a1` is the bottom-left
//! corner. Past `z` the files go on as spreadsheet columns do: `aa, ab, …`.

use std::fmt;
use std::str::FromStr;

use anyhow::{bail, Context};

/// The dimensions of a rectangular board: `width` files by `height` ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize {
    pub width: u16,
    pub height: u16,
}

impl BoardSize {
    pub const fn new(width: u16, height: u16) -> Self {
        BoardSize { width, height }
    }

    pub const fn square(side: u16) -> Self {
        BoardSize::new(side, side)
    }

    /// Number of squares on the board.
    pub fn area(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// True when `other` fits inside this size (both sides no larger).
    pub fn contains_size(self, other: BoardSize) -> bool {
        other.width <= self.width && other.height <= self.height
    }

    pub fn contains(self, square: Square) -> bool {
        square.file < self.width && square.rank < self.height
    }

    /// All squares in rank-major order: a1, b1, …, a2, b2, ….
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.height).flat_map(move |rank| (0..self.width).map(move |file| Square { file, rank }))
    }

    /// Why no closed tour can exist on this board, or `None` when one may.
    ///
    /// Schwenk (1991): an `m×n` board with `m <= n` has a closed tour unless
    /// `m` and `n` are both odd, `m` is 1, 2 or 4, or `m = 3` and `n` is 4, 6
    /// or 8. Every listed case is an impossibility proof, so a search can be
    /// skipped; the converse (a tour exists otherwise) is not relied upon.
    pub fn closed_tour_obstruction(self) -> Option<&'static str> {
        let short = self.width.min(self.height);
        let long = self.width.max(self.height);
        if short % 2 == 1 && long % 2 == 1 {
            Some("a closed tour needs an even number of squares (a knight alternates colours)")
        } else if matches!(short, 1 | 2 | 4) {
            Some("no closed tour exists when the shorter side is 1, 2 or 4 (Schwenk's theorem)")
        } else if short == 3 && matches!(long, 4 | 6 | 8) {
            Some("no closed tour exists on 3x4, 3x6 or 3x8 (Schwenk's theorem)")
        } else {
            None
        }
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for BoardSize {
    type Err = anyhow::Error;

    /// Accepts `N` (an N×N board) or `WxH` (W files, H ranks).
    fn from_str(text: &str) -> anyhow::Result<Self> {
        let text = text.trim();
        let parse_side = |side: &str| -> anyhow::Result<u16> {
            let value: u16 = side
                .trim()
                .parse()
                .with_context(|| format!("board size '{text}' is not N or WxH with whole numbers (e.g. 8 or 6x5)"))?;
            if value == 0 {
                bail!("board size '{text}' has a side of 0; each side must be at least 1");
            }
            Ok(value)
        };
        match text.split_once(['x', 'X', '×']) {
            Some((w, h)) => Ok(BoardSize::new(parse_side(w)?, parse_side(h)?)),
            None => Ok(BoardSize::square(parse_side(text)?)),
        }
    }
}

/// A square as zero-based `(file, rank)`: `a1` is `(0, 0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub file: u16,
    pub rank: u16,
}

impl Square {
    pub const fn new(file: u16, rank: u16) -> Self {
        Square { file, rank }
    }

    /// The square reached by the step `(df, dr)`, if it stays on `board`.
    pub fn offset(self, df: i32, dr: i32, board: BoardSize) -> Option<Square> {
        let file = i32::from(self.file) + df;
        let rank = i32::from(self.rank) + dr;
        if (0..i32::from(board.width)).contains(&file) && (0..i32::from(board.height)).contains(&rank) {
            Some(Square::new(file as u16, rank as u16))
        } else {
            None
        }
    }

    /// Index in rank-major order (`a1` = 0, `b1` = 1, …).
    pub fn index(self, board: BoardSize) -> usize {
        self.rank as usize * board.width as usize + self.file as usize
    }
}

/// The name of a file: 0 → `a`, 25 → `z`, 26 → `aa`, 27 → `ab`, ….
pub fn file_name(file: u16) -> String {
    let mut n = u32::from(file) + 1;
    let mut letters = Vec::new();
    while n > 0 {
        n -= 1;
        letters.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    letters.reverse();
    String::from_utf8(letters).expect("ASCII letters")
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", file_name(self.file), u32::from(self.rank) + 1)
    }
}

impl FromStr for Square {
    type Err = anyhow::Error;

    /// Parses algebraic names such as `a1`, `h8` or `ab12` (case-insensitive).
    fn from_str(text: &str) -> anyhow::Result<Self> {
        let text = text.trim();
        let letters = text.chars().take_while(|c| c.is_ascii_alphabetic()).count();
        let (file_part, rank_part) = text.split_at(letters);
        let malformed = || format!("square '{text}' is not a file letter and rank number such as a1 or h8");
        if file_part.is_empty() || rank_part.is_empty() || !rank_part.chars().all(|c| c.is_ascii_digit()) {
            bail!(malformed());
        }
        let mut file: u32 = 0;
        for c in file_part.chars() {
            let digit = u32::from(c.to_ascii_lowercase() as u8 - b'a') + 1;
            file = file
                .checked_mul(26)
                .and_then(|f| f.checked_add(digit))
                .filter(|&f| f <= u32::from(u16::MAX))
                .with_context(malformed)?;
        }
        let rank: u32 =
            rank_part.parse().ok().filter(|&r| (1..=u32::from(u16::MAX)).contains(&r)).with_context(malformed)?;
        Ok(Square::new((file - 1) as u16, (rank - 1) as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_as_square_or_rectangle() {
        assert_eq!("8".parse::<BoardSize>().unwrap(), BoardSize::new(8, 8));
        assert_eq!("6x5".parse::<BoardSize>().unwrap(), BoardSize::new(6, 5));
        assert_eq!(" 3X4 ".parse::<BoardSize>().unwrap(), BoardSize::new(3, 4));
        for bad in ["0", "0x5", "5x0", "", "x", "8x", "a", "-3", "5x5x5", "99999"] {
            assert!(bad.parse::<BoardSize>().is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn square_names_round_trip() {
        assert_eq!("a1".parse::<Square>().unwrap(), Square::new(0, 0));
        assert_eq!("H8".parse::<Square>().unwrap(), Square::new(7, 7));
        assert_eq!("aa10".parse::<Square>().unwrap(), Square::new(26, 9));
        assert_eq!(Square::new(25, 0).to_string(), "z1");
        assert_eq!(Square::new(26, 0).to_string(), "aa1");
        assert_eq!(Square::new(51, 0).to_string(), "az1");
        assert_eq!(Square::new(52, 0).to_string(), "ba1");
        for file in 0..800 {
            let square = Square::new(file, 63);
            assert_eq!(square.to_string().parse::<Square>().unwrap(), square);
        }
        for bad in ["", "a", "1", "a0", "1a", "a1b", "é1", "a-1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn schwenk_obstructions() {
        let open = |w, h| BoardSize::new(w, h).closed_tour_obstruction().is_none();
        assert!(!open(5, 5) && !open(7, 3) && !open(4, 8) && !open(2, 6) && !open(1, 1));
        assert!(!open(3, 4) && !open(6, 3) && !open(3, 8));
        assert!(open(6, 6) && open(5, 6) && open(3, 10) && open(8, 8) && open(3, 12));
    }
}

//! A table's file: a short header, the palette of values, then one code per entry, deflated (a
//! table is mostly long runs of the same few codes: the 10-stone table's 134 MB of codes are a
//! few MB so). Every field is checked on reading, and the inflated codes may not pass the size
//! the header implies, so a truncated, damaged or foreign file is refused with what is wrong,
//! never half-read.
//!
//! ```text
//! 8  magic "OAQ-TB\0\x03"
//! 1  stones (the table's N)       1  zero    2  palette length P (1 to 256), little-endian
//! 4  settled (moves left from which the values hold), little-endian
//! 8  entries, little-endian       8  FNV-1a hash of the palette's bytes and the codes
//! P × 2  the palette: the values, i16 little-endian, sorted (-32768: not exact)
//! the rest: deflate (RFC 1951) of one byte per entry, its value's place in the palette
//! ```

use super::Tablebase;
use super::index::{Indexer, MAX_STONES, TOTAL};

const MAGIC: &[u8; 8] = b"OAQ-TB\0\x03";
/// How hard the values are deflated: the best, since a table is written once.
const LEVEL: u8 = 9;
const HEADER: usize = 32;

/// FNV-1a, 64 bits: enough to catch a damaged file, and the same on every platform.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn palette_bytes(palette: &[i16]) -> Vec<u8> {
    palette.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The file's bytes.
pub fn write(table: &Tablebase) -> Vec<u8> {
    let palette = palette_bytes(table.palette());
    let codes = table.codes();
    let mut hashed = palette.clone();
    hashed.extend_from_slice(codes);
    let mut out = Vec::with_capacity(HEADER + palette.len() + codes.len() / 16);
    out.extend_from_slice(MAGIC);
    out.push(table.stones() as u8);
    out.push(0);
    out.extend_from_slice(&(table.palette().len() as u16).to_le_bytes());
    out.extend_from_slice(&table.settled().to_le_bytes());
    out.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(&hashed).to_le_bytes());
    out.extend_from_slice(&palette);
    out.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(codes, LEVEL));
    out
}

fn word<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut word = [0; N];
    word.copy_from_slice(&bytes[at..at + N]);
    word
}

/// A table from a file's bytes, or what is wrong with them.
pub fn read(bytes: &[u8]) -> Result<Tablebase, String> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("not an endgame table (the header is missing or of another kind)".into());
    }
    let stones = bytes[8];
    if stones == 0 || stones > MAX_STONES {
        return Err(format!("{stones} stones: a table holds 1 to {MAX_STONES}"));
    }
    let colours = usize::from(u16::from_le_bytes(word(bytes, 10)));
    if !(1..=256).contains(&colours) {
        return Err(format!(
            "a palette of {colours} values: a table has 1 to 256"
        ));
    }
    let settled = u32::from_le_bytes(word(bytes, 12));
    let entries = u64::from_le_bytes(word(bytes, 16));
    // No table has more entries than one of every board and store (checked before anything is
    // inflated).
    let most = Indexer::new(stones).len() * (TOTAL as u64 + 1);
    if entries > most {
        return Err(format!(
            "{entries} entries: a table of {stones} stones has fewer"
        ));
    }
    let body = HEADER + 2 * colours;
    if bytes.len() < body {
        return Err("the palette is cut short".into());
    }
    let palette: Vec<i16> = bytes[HEADER..body]
        .chunks_exact(2)
        .map(|v| i16::from_le_bytes([v[0], v[1]]))
        .collect();
    let codes =
        miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes[body..], entries as usize)
            .map_err(|e| {
                format!("the codes cannot be inflated ({e}): the file is damaged or cut short")
            })?;
    if codes.len() as u64 != entries {
        return Err(format!(
            "{} codes, the header says {entries}: the file is cut short",
            codes.len()
        ));
    }
    let mut hashed = palette_bytes(&palette);
    hashed.extend_from_slice(&codes);
    if fnv1a(&hashed) != u64::from_le_bytes(word(bytes, 24)) {
        return Err("the values do not match the header's hash: the file is damaged".into());
    }
    Tablebase::from_codes(stones, settled, palette, codes)
}

const ROUND_MAGIC: &[u8; 8] = b"OAQ-TR\0\x03";

/// A saved round: (round, each entry's low and high end, the round each entry last changed).
pub type Round = (u32, Vec<[i16; 2]>, Vec<u16>);

/// An unfinished build's last round: header (magic, stones, round, entries, hash), then per entry
/// its value's low and high end and the round it last changed (three little-endian 16-bit words).
pub fn write_round(stones: u8, round: u32, values: &[[i16; 2]], changed_at: &[u16]) -> Vec<u8> {
    let body: Vec<u8> = values
        .iter()
        .zip(changed_at)
        .flat_map(|(&[l, h], &at)| [l.to_le_bytes(), h.to_le_bytes(), at.to_le_bytes()])
        .flatten()
        .collect();
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(ROUND_MAGIC);
    out.push(stones);
    out.extend_from_slice(&[0; 3]);
    out.extend_from_slice(&round.to_le_bytes());
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// The round `write_round` saved, for a table of `stones` with `entries` entries.
pub fn read_round(bytes: &[u8], stones: u8, entries: usize) -> Result<Round, String> {
    if bytes.len() < HEADER || &bytes[..8] != ROUND_MAGIC {
        return Err("not a saved round of a table build".into());
    }
    if bytes[8] != stones {
        return Err(format!(
            "saved for a table of {} stones, not {stones}",
            bytes[8]
        ));
    }
    let round = u32::from_le_bytes(word(bytes, 12));
    let body = &bytes[HEADER..];
    if u64::from_le_bytes(word(bytes, 16)) != entries as u64
        || body.len() != 6 * entries
        || fnv1a(body) != u64::from_le_bytes(word(bytes, 24))
    {
        return Err("the saved round is cut short or damaged: delete it to start over".into());
    }
    let word16 = |c: &[u8], i: usize| [c[2 * i], c[2 * i + 1]];
    let (values, changed_at) = body
        .chunks_exact(6)
        .map(|c| {
            (
                [
                    i16::from_le_bytes(word16(c, 0)),
                    i16::from_le_bytes(word16(c, 1)),
                ],
                u16::from_le_bytes(word16(c, 2)),
            )
        })
        .unzip();
    Ok((round, values, changed_at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_back_and_damage_is_named() {
        let len = super::super::starts(&Indexer::new(2))
            .last()
            .copied()
            .unwrap() as usize;
        let values: Vec<i16> = (0..len).map(|i| (i % 200) as i16 - 100).collect();
        let table = Tablebase::new(2, 17, values).unwrap();
        let bytes = write(&table);
        assert!(bytes.len() > 32);
        assert_eq!(read(&bytes).unwrap(), table);
        assert!(
            read(&bytes[..bytes.len() - 1])
                .unwrap_err()
                .contains("cut short")
        );
        let mut damaged = bytes.clone();
        let last = damaged.len() - 3;
        damaged[last] ^= 0x55;
        assert!(read(&damaged).unwrap_err().contains("damaged"));
        let mut other = bytes.clone();
        other[8] = 3;
        assert!(read(&other).unwrap_err().contains("has"));
        let mut huge = bytes.clone();
        huge[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(read(&huge).unwrap_err().contains("fewer"));
        assert!(read(b"hello").unwrap_err().contains("not an endgame table"));
    }
}

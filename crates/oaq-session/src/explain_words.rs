//! An explanation's facts in words, in either language: one sentence a fact, naming the
//! players, the moves and the pits as the screen that shows them does.
//!
//! ```
//! use oaq_ai::explain::{Explanation, Fact, Taking};
//! use oaq_session::{Lang, Names, explanation_words};
//! let mv = "3+".parse().unwrap();
//! let why = Explanation {
//!     played: mv,
//!     better: "4-".parse().unwrap(),
//!     depth: 6,
//!     facts: vec![Fact::ReplyTakes(Taking {
//!         mv: "8-".parse().unwrap(),
//!         seat: 1,
//!         pits: vec![3, 5],
//!         stones: 4,
//!         mandarins: 1,
//!     })],
//! };
//! let names = Names {
//!     mover: "Lan",
//!     opponent: "Bình",
//!     mv: &|m| m.to_string(),
//!     pit: &|p| format!("pit {p}"),
//! };
//! let words = explanation_words(&why, Lang::En, &names);
//! assert_eq!(
//!     words,
//!     ["Then Bình plays 8- and takes 14 points from pit 3 and pit 5, a mandarin among them."]
//! );
//! ```

use oaq_ai::explain::{Explanation, Fact, Taking};
use oaq_rules::Move;

use super::Lang;

/// How the screen names the players, a move and a pit (by ring index).
pub struct Names<'a> {
    /// Who played the move explained.
    pub mover: &'a str,
    /// Who replies to it.
    pub opponent: &'a str,
    pub mv: &'a dyn Fn(Move) -> String,
    pub pit: &'a dyn Fn(u8) -> String,
}

/// One sentence for each fact of `why`, in order.
pub fn explanation_words(why: &Explanation, lang: Lang, names: &Names) -> Vec<String> {
    let better = (names.mv)(why.better);
    why.facts
        .iter()
        .map(|fact| match fact {
            Fact::PlayedTakes(t) => {
                lang.trf("explain.played_takes", &[("taken", &taken(t, lang, names))])
            }
            Fact::ReplyTakes(t) => lang.trf(
                "explain.reply_takes",
                &[
                    ("them", &names.opponent),
                    ("mv", &(names.mv)(t.mv)),
                    ("taken", &taken(t, lang, names)),
                ],
            ),
            Fact::RefillCosts { paid } => lang.trf(
                "explain.refill",
                &[
                    ("who", &names.mover),
                    ("points", &points(u32::from(*paid), lang)),
                ],
            ),
            Fact::BetterTakes(t) => lang.trf(
                "explain.better_takes",
                &[("better", &better), ("taken", &taken(t, lang, names))],
            ),
            Fact::BetterLeaves(t) if t.points() == 0 => lang.trf(
                "explain.better_leaves_nothing",
                &[("better", &better), ("them", &names.opponent)],
            ),
            Fact::BetterLeaves(t) => lang.trf(
                "explain.better_leaves",
                &[
                    ("better", &better),
                    ("them", &names.opponent),
                    ("points", &points(t.points(), lang)),
                ],
            ),
        })
        .collect()
}

/// "14 points from pit 3 and pit 5, a mandarin among them".
fn taken(t: &Taking, lang: Lang, names: &Names) -> String {
    let pits: Vec<String> = t.pits.iter().map(|&p| (names.pit)(p)).collect();
    let pits = match pits.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{}{}{last}", rest.join(", "), lang.tr("explain.and")),
        None => String::new(),
    };
    let key = match t.mandarins {
        0 => "explain.from",
        _ => "explain.from_with_mandarin",
    };
    lang.trf(
        key,
        &[("points", &points(t.points(), lang)), ("pits", &pits)],
    )
}

fn points(n: u32, lang: Lang) -> String {
    match n {
        1 => lang.tr("explain.one_point").to_owned(),
        n => lang.trf("explain.points", &[("n", &n)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taking(mv: &str, seat: usize, pits: Vec<u8>, stones: u32, mandarins: u32) -> Taking {
        Taking {
            mv: mv.parse().unwrap(),
            seat,
            pits,
            stones,
            mandarins,
        }
    }

    #[test]
    fn every_fact_has_a_whole_sentence_in_both_languages() {
        let why = Explanation {
            played: "3+".parse().unwrap(),
            better: "4-".parse().unwrap(),
            depth: 6,
            facts: vec![
                Fact::PlayedTakes(taking("3+", 0, vec![1], 1, 0)),
                Fact::ReplyTakes(taking("8-", 1, vec![3, 4, 5], 6, 1)),
                Fact::RefillCosts { paid: 5 },
                Fact::BetterTakes(taking("4-", 0, vec![9], 7, 0)),
                Fact::BetterLeaves(taking("7+", 1, vec![2], 2, 0)),
                Fact::BetterLeaves(taking("7+", 1, vec![], 0, 0)),
            ],
        };
        let names = Names {
            mover: "Lan",
            opponent: "Bình",
            mv: &|m| m.to_string(),
            pit: &|p| format!("<{p}>"),
        };
        for lang in Lang::ALL {
            let words = explanation_words(&why, lang, &names);
            assert_eq!(words.len(), why.facts.len());
            for line in &words {
                assert!(
                    !line.contains('{') && !line.contains("explain."),
                    "{lang:?}: {line}"
                );
            }
            assert!(words[0].contains("<1>") && words[0].contains('1'));
            assert!(words[1].contains("<3>, <4>") && words[1].contains("16"));
            assert!(words[1].contains("Bình") && words[1].contains("8-"));
            assert!(words[2].contains("Lan") && words[2].contains('5'));
            assert!(words[3].contains("4-") && words[3].contains('7'));
            assert!(words[4].contains('2') && words[4].contains("Bình"));
            assert_ne!(words[4], words[5], "nothing taken is said so");
        }
    }
}

//! A move's grade as the review shows it: its colour, its mark and its name's key.

use bevy::prelude::*;

use crate::ai::review::Quality;
use crate::game::theme::palette;

/// The colour a grade is shown in.
pub(super) fn quality_colour(quality: Quality) -> Color {
    match quality {
        Quality::Best | Quality::Good => palette::GRADE_GOOD,
        Quality::Inaccuracy => palette::GRADE_INACCURACY,
        Quality::Mistake => palette::GRADE_MISTAKE,
        Quality::Blunder => palette::GRADE_BLUNDER,
    }
}

/// The mark after a move in the list: nothing for a good move.
pub(super) fn quality_mark(quality: Quality) -> &'static str {
    match quality {
        Quality::Best | Quality::Good => "",
        Quality::Inaccuracy => " ?!",
        Quality::Mistake => " ?",
        Quality::Blunder => " ??",
    }
}

pub(super) fn quality_key(quality: Quality) -> &'static str {
    match quality {
        Quality::Best => "review.q.best",
        Quality::Good => "review.q.good",
        Quality::Inaccuracy => "review.q.inaccuracy",
        Quality::Mistake => "review.q.mistake",
        Quality::Blunder => "review.q.blunder",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Lang;

    const ALL: [Quality; 5] = [
        Quality::Best,
        Quality::Good,
        Quality::Inaccuracy,
        Quality::Mistake,
        Quality::Blunder,
    ];

    #[test]
    fn each_grade_has_its_own_name_in_both_languages() {
        for lang in Lang::ALL {
            let names: Vec<&str> = ALL.iter().map(|&q| lang.tr(quality_key(q))).collect();
            for (q, name) in ALL.iter().zip(&names) {
                assert_ne!(*name, quality_key(*q), "{q:?} has no words in {lang:?}");
            }
            let mut distinct = names.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                ALL.len(),
                "two grades read alike: {names:?}"
            );
        }
    }

    #[test]
    fn only_a_move_that_gave_points_away_is_marked_and_worse_ones_look_worse() {
        assert_eq!(quality_mark(Quality::Best), "");
        assert_eq!(quality_mark(Quality::Good), "");
        let marks = [Quality::Inaccuracy, Quality::Mistake, Quality::Blunder].map(quality_mark);
        assert!(marks.iter().all(|m| m.contains('?')), "{marks:?}");
        assert_eq!(
            marks[1..]
                .iter()
                .map(|m| m.matches('?').count())
                .collect::<Vec<_>>(),
            [1, 2]
        );
        // A good move is drawn in a colour of its own, apart from every fault's.
        let good = quality_colour(Quality::Good);
        for q in [Quality::Inaccuracy, Quality::Mistake, Quality::Blunder] {
            assert_ne!(quality_colour(q), good, "{q:?}");
        }
    }
}

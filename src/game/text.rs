//! What the message line says about each event, and the final count explained.

use crate::rules::{EndReason, Event, Position, TurnEnd};

/// The message for `event`, if it deserves one.
pub fn narrate(event: &Event, mover: usize) -> Option<String> {
    let who = |p: usize| format!("Player {}", p + 1);
    Some(match *event {
        Event::Capture {
            stones,
            mandarin: true,
            ..
        } => {
            format!(
                "Captured the mandarin: 10 + {stones} = {}",
                10 + u32::from(stones)
            )
        }
        Event::Capture { stones: 1, .. } => "Captured 1 stone!".to_owned(),
        Event::Capture { stones, .. } => format!("Captured {stones} stones!"),
        Event::TurnEnd {
            reason: TurnEnd::MandarinPit { .. },
        } => "Turn over: next pit is a mandarin pit".to_owned(),
        Event::TurnEnd {
            reason: TurnEnd::TwoEmpty { .. },
        } => "Two empty pits: turn over".to_owned(),
        Event::TurnEnd {
            reason: TurnEnd::Protected { .. },
        } => "The mandarin is too young to capture: turn over".to_owned(),
        Event::TurnEnd {
            reason: TurnEnd::Cycle,
        } => "The sowing came back round: turn over".to_owned(),
        Event::TurnEnd {
            reason: TurnEnd::Blocked { .. },
        } => return None,
        Event::Refill {
            player, paid, loan, ..
        } => {
            let mut text = format!(
                "{}: refill with {paid} stones from the store",
                who(usize::from(player))
            );
            if let Some(loan) = loan {
                text += &format!(" (borrowed {})", loan.stones);
            }
            text
        }
        Event::Swap => format!("{} flips the table: sides exchanged", who(mover)),
        Event::GameOver { reason, .. } => match reason {
            EndReason::Forfeit { player } => {
                format!("{} cannot refill and loses", who(usize::from(player)))
            }
            EndReason::NoStonesToLend { player } => {
                format!(
                    "{} cannot refill and nobody can lend: game over",
                    who(usize::from(player))
                )
            }
            EndReason::Repetition => "The same moves three times: game over".to_owned(),
            EndReason::MoveLimit => "Move limit reached: game over".to_owned(),
            EndReason::MandarinsCaptured => "Both mandarin pits are empty: game over".to_owned(),
        },
        _ => return None,
    })
}

/// "1 mandarin + 23 stones + 4 from the row − 2 owed = 35", for the game-over panel.
pub fn final_count(pos: &Position, player: usize, swept: u32) -> String {
    let store = pos.store(player);
    let mandarins = u32::from(store.mandarins);
    let stones = i32::from(store.stones) - swept as i32;
    let mut text = match mandarins {
        0 => String::new(),
        1 => "1 mandarin + ".to_owned(),
        n => format!("{n} mandarins + "),
    };
    text += &format!("{stones} stones");
    if swept > 0 {
        text += &format!(" + {swept} from the row");
    }
    let owed: i32 = store.owes.iter().map(|&o| i32::from(o)).sum();
    if owed > 0 {
        text += &format!(" − {owed} owed");
    }
    let lent: i32 = (0..pos.players())
        .map(|q| i32::from(pos.store(q).owes[player]))
        .sum();
    if lent > 0 {
        text += &format!(" + {lent} lent");
    }
    text + &format!(" = {}", pos.score(player))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Setup, Store, presets};

    #[test]
    fn the_final_count_reads_like_the_rule_sheet() {
        let rules = presets::get("standard").unwrap().rules;
        let mut owes = [0; 3];
        owes[1] = 2;
        let setup = Setup {
            ply: 60,
            to_move: 1,
            pits: vec![0; 12],
            quan: vec![false, false],
            stores: vec![
                Store {
                    stones: 27,
                    mandarins: 1,
                    owes,
                },
                Store {
                    stones: 23,
                    mandarins: 1,
                    owes: [0; 3],
                },
            ],
            over: true,
            forfeit: None,
            swapped: false,
        };
        let pos = Position::from_setup(rules, &setup).unwrap();
        assert_eq!(
            final_count(&pos, 0, 4),
            "1 mandarin + 23 stones + 4 from the row − 2 owed = 35"
        );
        assert_eq!(
            final_count(&pos, 1, 0),
            "1 mandarin + 23 stones + 2 lent = 35"
        );
    }
}

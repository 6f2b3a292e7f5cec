//! A tournament's results as a CSV file (`GET /tournaments/ID/results.csv`), for a teacher's or
//! a club's spreadsheet: every player, in the standings' order, in UTF-8 with a byte-order mark
//! (so that spreadsheets read Vietnamese names right), each field quoted where it must be and
//! no name read as a formula. A child's name is never in it.

use std::sync::Arc;

use oaq_tournament::Tournament;

use super::Run;
use crate::shared::Server;
use crate::store::StoreError;

/// How a child is named in a file anyone with its link may read.
pub const A_PLAYER: &str = "a player";

/// The CSV of tournament `id`, or none if there is no such tournament.
pub async fn csv(server: &Arc<Server>, id: &str) -> Result<Option<String>, StoreError> {
    let Some(row) = server.store.tournament(id).await? else {
        return Ok(None);
    };
    let t = match Run::of_row(&row) {
        Ok((_, t)) => t,
        Err(_) => return Err(StoreError::Corrupt(format!("tournament {id}: its state"))),
    };
    // Read by anyone with the link: a child is "a player" in it (the policy's view for a
    // reader nobody knows).
    let ids: Vec<&str> = t.entrants.iter().map(|e| e.id.as_str()).collect();
    let children = crate::policy::children_among(server, &ids).await?;
    let anyone = crate::policy::Viewer::of(server, None, &children).await?;
    let mut names = Vec::with_capacity(t.entrants.len());
    for entrant in &t.entrants {
        let name = match server.store.player(&entrant.id).await? {
            Some(p) => match anyone.show(&p.info) {
                crate::policy::Shown::Known(info) => info.name,
                crate::policy::Shown::Hidden => A_PLAYER.to_owned(),
            },
            None => String::new(),
        };
        names.push(name);
    }
    Ok(Some(table(&t, &names)))
}

/// The table of `t`, its players named by `names` (in their numbers' order).
fn table(t: &Tournament, names: &[String]) -> String {
    let mut out =
        String::from("\u{feff}place,name,points,buchholz,sonneborn_berger,games,status\r\n");
    for s in t.standings() {
        let status = match t.entrants[s.player].presence {
            oaq_tournament::Presence::Active => "in",
            oaq_tournament::Presence::Paused => "paused",
            oaq_tournament::Presence::Withdrawn => "withdrawn",
        };
        let name = names.get(s.player).map_or("", String::as_str);
        out.push_str(&format!(
            "{},{},{},{},{},{},{status}\r\n",
            s.place,
            field(name),
            s.points,
            s.buchholz,
            s.sonneborn_berger,
            s.games
        ));
    }
    out
}

/// `text` as one CSV field: quoted when it holds a comma, a quote or a line break (quotes
/// doubled), and led by an apostrophe when a spreadsheet would read it as a formula.
fn field(text: &str) -> String {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let text = if formula {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_tournament::{Format, Outcome};

    #[test]
    fn names_are_quoted_where_they_must_be_and_never_read_as_formulas() {
        assert_eq!(field("Bà Năm"), "Bà Năm");
        assert_eq!(field("An, the elder"), "\"An, the elder\"");
        assert_eq!(field("\"Tí\""), "\"\"\"Tí\"\"\"");
        assert_eq!(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(field("-1"), "'-1");
    }

    #[test]
    fn the_table_lists_every_player_in_the_standings_order() {
        let mut t = Tournament::new(Format::RoundRobin { twice: false }).unwrap();
        for id in ["a", "b", "c"] {
            t.join(id, 1500.0).unwrap();
        }
        t.start(0, 60_000).unwrap();
        let games = t.pairings(0, 0, |_, _| false, || true);
        t.finish(games[0], Outcome::Win).unwrap();
        t.withdraw(0).unwrap();
        let names = ["Bà, Năm".to_owned(), "Minh".to_owned(), "=cmd".to_owned()];
        let csv = table(&t, &names);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(
            lines[0],
            "\u{feff}place,name,points,buchholz,sonneborn_berger,games,status"
        );
        assert_eq!(
            lines.len(),
            5,
            "a header, three players and the last line's end"
        );
        let winner = names[games[0].first].as_str();
        assert!(lines[1].starts_with("1,"), "{csv}");
        assert!(lines[1].contains(&field(winner)), "{csv}");
        assert!(
            csv.contains("\"Bà, Năm\"") && csv.contains("'=cmd"),
            "{csv}"
        );
        assert!(csv.contains(",withdrawn\r\n"), "{csv}");
    }
}

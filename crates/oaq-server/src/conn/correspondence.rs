//! A connection's correspondence messages: "My games" (asked of each game's room, which knows
//! whose turn it is and the time left) and vacations, taken out of a yearly allowance.

use oaq_net::correspondence::Vacation;
use oaq_net::protocol::{ErrorCode, Notice, ServerMessage};

use super::Conn;
use super::account::{Refused, refused};
use crate::mailbox::{Command, ConnRef};
use crate::room::registry;
use crate::settings::{Settings, now_ms};
use crate::shared::Server;
use crate::store::VacationRow;

/// A year as the allowance counts it (Julian years from 1970: the allowance renews about
/// every 1 January).
const YEAR_MS: i64 = 31_557_600_000;

/// The year's allowance left, and the row with last year's use forgotten.
fn this_year(row: VacationRow, settings: &Settings, now: i64) -> (VacationRow, i64) {
    let year = now.div_euclid(YEAR_MS);
    let mut row = row;
    if row.year != year {
        row.year = year;
        row.used_ms = 0;
    }
    let allowance = (settings.vacation_days * settings.day_ms()) as i64;
    (row, (allowance - row.used_ms).max(0))
}

impl Conn {
    pub(super) async fn my_games(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let games = crate::room::correspondence::games_of(&self.server, &me.player.id).await?;
        let vacation = self.vacation_state(me).await?;
        self.send(&ServerMessage::Notice(Notice::MyGames { games, vacation }));
        Ok(())
    }

    async fn vacation_state(&self, me: &ConnRef) -> Result<Vacation, Refused> {
        let now = now_ms();
        let row = self.server.store.vacation(&me.player.id).await?;
        let (row, left_ms) = this_year(row, &self.server.settings, now);
        Ok(Vacation {
            until_ms: row.until_ms.filter(|&u| u > now),
            left_ms,
            day_ms: self.server.settings.day_ms() as i64,
        })
    }

    /// Start a vacation of `days`, or (0) end the one under way, returning its unused days.
    /// A vacation costs at least a day of the allowance, however soon it ends, and one starts
    /// at most once a day: pausing and resuming at will would cost nothing and fill the
    /// opponents' logs.
    pub(super) async fn vacation(&mut self, me: &ConnRef, days: u8) -> Result<(), Refused> {
        let store = &self.server.store;
        let settings = &self.server.settings;
        let day = settings.day_ms() as i64;
        let now = now_ms();
        let (mut row, left) = this_year(store.vacation(&me.player.id).await?, settings, now);
        let on = row.until_ms.filter(|&u| u > now);
        let started = store.vacation_started(&me.player.id).await?;
        if days == 0 {
            let Some(until) = on else {
                return Err(refused(ErrorCode::NotAllowed, "you are not on vacation"));
            };
            // What is not taken comes back, but never the vacation's first day.
            let returned = (until - now.max(started.saturating_add(day))).max(0);
            row.used_ms = (row.used_ms - returned).max(0);
            row.until_ms = None;
        } else {
            if on.is_some() {
                return Err(refused(
                    ErrorCode::NotAllowed,
                    "you are on vacation already: come back first to change it",
                ));
            }
            if now - started < day {
                return Err(refused(
                    ErrorCode::RateLimited,
                    "one vacation a day: your last one began less than a day ago",
                ));
            }
            let want = i64::from(days) * day;
            if want > left {
                return Err(refused(
                    ErrorCode::NotAllowed,
                    format!(
                        "{days} days is more than the {:.1} left this year",
                        left as f64 / day as f64
                    ),
                ));
            }
            row.used_ms += want;
            row.until_ms = Some(now + want);
            store.set_vacation_started(&me.player.id, now).await?;
        }
        store.set_vacation(&me.player.id, row).await?;
        pause_games_of(&self.server, &me.player.id).await?;
        self.my_games(me).await
    }
}

/// Bring back the players whose vacation has run out, every so often (a twentieth of a day,
/// and at least every minute): their games' clocks run again. On several nodes the store gives
/// each player to one of them.
pub(crate) async fn end_vacations(server: std::sync::Arc<Server>) {
    let every = (server.settings.day / 20).clamp(
        std::time::Duration::from_millis(100),
        std::time::Duration::from_secs(60),
    );
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        match server.store.vacations_ended(now_ms()).await {
            Ok(players) => {
                for player in players {
                    if let Err(e) = pause_games_of(&server, &player).await {
                        tracing::warn!("resuming games after a vacation: {e}");
                    }
                }
            }
            Err(e) => tracing::warn!("reading vacations: {e}"),
        }
    }
}

/// Tell every correspondence game of `player`'s to pause or resume its clocks as vacations now
/// stand.
pub(crate) async fn pause_games_of(
    server: &std::sync::Arc<Server>,
    player: &str,
) -> Result<(), crate::store::StoreError> {
    for code in server.store.correspondence_rooms_of(player).await? {
        if let Some(room) = registry::find(server, &code).await? {
            let _ = room.tx.send(Command::Vacations).await;
        }
    }
    Ok(())
}

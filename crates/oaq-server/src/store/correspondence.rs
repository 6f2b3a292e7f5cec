//! The store's correspondence play: a player's correspondence rooms, and vacations.

use sqlx::Row;

use crate::store::{Store, StoreResult};

/// A player's vacation as stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VacationRow {
    pub until_ms: Option<i64>,
    pub used_ms: i64,
    pub year: i64,
}

impl Store {
    /// Codes of the correspondence rooms `player` sits in that are waiting or being played.
    pub async fn correspondence_rooms_of(&self, player: &str) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT r.code FROM room_seats s JOIN rooms r ON r.code = s.code \
             WHERE s.player = $1 AND r.days > 0 AND r.status IN ('waiting', 'playing') \
             ORDER BY r.code",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| Ok(r.try_get::<String, _>(0)?))
            .collect()
    }

    /// Whether any of `players` is on vacation at `now`.
    pub async fn on_vacation(&self, players: &[String], now: i64) -> StoreResult<bool> {
        for player in players {
            let row = sqlx::query(
                "SELECT 1 FROM players WHERE id = $1 AND vacation_until_ms IS NOT NULL \
                 AND vacation_until_ms > $2",
            )
            .bind(player)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
            if row.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    pub async fn vacation(&self, player: &str) -> StoreResult<VacationRow> {
        let row = sqlx::query(
            "SELECT vacation_until_ms, vacation_used_ms, vacation_year FROM players WHERE id = $1",
        )
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => VacationRow {
                until_ms: r.try_get(0)?,
                used_ms: r.try_get(1)?,
                year: r.try_get(2)?,
            },
            None => VacationRow::default(),
        })
    }

    pub async fn set_vacation(&self, player: &str, v: VacationRow) -> StoreResult<()> {
        sqlx::query(
            "UPDATE players SET vacation_until_ms = $1, vacation_used_ms = $2, \
             vacation_year = $3 WHERE id = $4",
        )
        .bind(v.until_ms)
        .bind(v.used_ms)
        .bind(v.year)
        .bind(player)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Players whose vacation has run out by `now`, marked back (each is returned once, to
    /// whichever node asks first).
    pub async fn vacations_ended(&self, now: i64) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "UPDATE players SET vacation_until_ms = NULL \
             WHERE vacation_until_ms IS NOT NULL AND vacation_until_ms <= $1 RETURNING id",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| Ok(r.try_get::<String, _>(0)?))
            .collect()
    }

    /// How many of `player`'s last `games` rated games they abandoned.
    pub async fn abandoned(&self, player: &str, games: u32) -> StoreResult<u32> {
        let rows = sqlx::query(
            "SELECT abandoned FROM rated_games WHERE player = $1 ORDER BY at_ms DESC LIMIT $2",
        )
        .bind(player)
        .bind(i64::from(games))
        .fetch_all(&self.pool)
        .await?;
        let mut n = 0;
        for r in rows {
            n += u32::from(r.try_get::<i64, _>(0)? != 0);
        }
        Ok(n)
    }
}

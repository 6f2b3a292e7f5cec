//! The store's tournaments: made, read, written back at the version read (a node that lost
//! the race writes nothing), who takes part, and the lists players see.

use sqlx::Row;

use crate::store::{Store, StoreError, StoreResult};
use oaq_net::protocol::ClockSpec;
use oaq_net::tournament::TournamentStatus;
use oaq_rules::RuleSet;

/// A tournament as the store keeps it; `state` is the running tournament as JSON.
#[derive(Clone, Debug)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    pub organiser: String,
    pub preset: String,
    pub rules: RuleSet,
    pub clock: ClockSpec,
    pub public: bool,
    pub status: TournamentStatus,
    pub starts_ms: i64,
    pub created_ms: i64,
    pub state: String,
    pub version: i64,
}

/// The columns, in the order `tournament_of_row` reads them (a macro: queries are literals).
macro_rules! columns {
    () => {
        "id, name, organiser, preset, rules, clock, public, status, starts_ms, created_ms, \
         state, version"
    };
}

impl Store {
    /// A new tournament, its organiser among its players if `joined`.
    pub async fn add_tournament(&self, t: &TournamentRow, joined: bool) -> StoreResult<()> {
        let rules = serde_json::to_string(&t.rules)
            .unwrap_or_else(|e| unreachable!("rules always serialise: {e}"));
        let clock = serde_json::to_string(&t.clock)
            .unwrap_or_else(|e| unreachable!("clocks always serialise: {e}"));
        let mut tx = self.pool.begin().await?;
        sqlx::query(concat!(
            "INSERT INTO tournaments (",
            columns!(),
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
        ))
        .bind(t.id.as_str())
        .bind(t.name.as_str())
        .bind(t.organiser.as_str())
        .bind(t.preset.as_str())
        .bind(rules)
        .bind(clock)
        .bind(i64::from(t.public))
        .bind(t.status.as_str())
        .bind(t.starts_ms)
        .bind(t.created_ms)
        .bind(t.state.as_str())
        .bind(t.version)
        .execute(&mut *tx)
        .await?;
        if joined {
            sqlx::query("INSERT INTO tournament_players (tournament, player) VALUES ($1, $2)")
                .bind(t.id.as_str())
                .bind(t.organiser.as_str())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn tournament(&self, id: &str) -> StoreResult<Option<TournamentRow>> {
        let row = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM tournaments WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(tournament_of_row).transpose()
    }

    /// Write the tournament back as `status` and `state` if it is still at `version`; the
    /// player `entered` (or `left`) the tournament in the same transaction. `false` when
    /// another writer came first: nothing was written.
    pub async fn save_tournament(
        &self,
        id: &str,
        version: i64,
        status: TournamentStatus,
        state: &str,
        entry: Option<(&str, bool)>,
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET status = $1, state = $2, version = version + 1 \
             WHERE id = $3 AND version = $4",
        )
        .bind(status.as_str())
        .bind(state)
        .bind(id)
        .bind(version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        match entry {
            Some((player, true)) => {
                sqlx::query(
                    "INSERT INTO tournament_players (tournament, player) VALUES ($1, $2) \
                     ON CONFLICT (tournament, player) DO NOTHING",
                )
                .bind(id)
                .bind(player)
                .execute(&mut *tx)
                .await?;
            }
            Some((player, false)) => {
                sqlx::query("DELETE FROM tournament_players WHERE tournament = $1 AND player = $2")
                    .bind(id)
                    .bind(player)
                    .execute(&mut *tx)
                    .await?;
            }
            None => {}
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The tournaments `player` organised or takes part in (newest first, at most `limit`),
    /// and the public ones not over (soonest first).
    pub async fn tournaments_listed(
        &self,
        player: &str,
        limit: i64,
    ) -> StoreResult<(Vec<TournamentRow>, Vec<TournamentRow>)> {
        let mine = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM tournaments WHERE organiser = $1 OR id IN \
             (SELECT tournament FROM tournament_players WHERE player = $1) \
             ORDER BY created_ms DESC LIMIT $2"
        ))
        .bind(player)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let public = sqlx::query(concat!(
            "SELECT ",
            columns!(),
            " FROM tournaments WHERE public = 1 AND status <> 'over' ORDER BY starts_ms LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let read = |rows: Vec<sqlx::any::AnyRow>| {
            rows.into_iter()
                .map(tournament_of_row)
                .collect::<StoreResult<Vec<_>>>()
        };
        Ok((read(mine)?, read(public)?))
    }

    /// Tournaments that need running: every one not over (an open one's players hear of
    /// each other joining; it starts when due).
    pub async fn tournaments_to_run(&self) -> StoreResult<Vec<String>> {
        let rows = sqlx::query("SELECT id FROM tournaments WHERE status <> 'over'")
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter()
            .map(|r| r.try_get::<String, _>(0).map_err(StoreError::from))
            .collect()
    }

    /// Tournaments `player` organised that are not over.
    pub async fn organising(&self, player: &str) -> StoreResult<usize> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM tournaments WHERE organiser = $1 AND status <> 'over'",
        )
        .bind(player)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>(0)? as usize)
    }

    /// How room `code`'s game ended, once it has.
    pub async fn room_result(
        &self,
        code: &str,
    ) -> StoreResult<Option<oaq_net::protocol::GameResult>> {
        let row = sqlx::query("SELECT status FROM rooms WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        if row.try_get::<String, _>(0)? != "finished" {
            return Ok(None);
        }
        let events = self.events(code, None).await?;
        Ok(events.into_iter().rev().find_map(|e| match e {
            oaq_net::protocol::RoomEvent::Ended { result, .. } => Some(result),
            _ => None,
        }))
    }
}

fn tournament_of_row(row: sqlx::any::AnyRow) -> StoreResult<TournamentRow> {
    let corrupt = |what: String| StoreError::Corrupt(format!("tournament row: {what}"));
    let rules: String = row.try_get(4)?;
    let clock: String = row.try_get(5)?;
    let status: String = row.try_get(7)?;
    Ok(TournamentRow {
        id: row.try_get(0)?,
        name: row.try_get(1)?,
        organiser: row.try_get(2)?,
        preset: row.try_get(3)?,
        rules: serde_json::from_str(&rules).map_err(|e| corrupt(e.to_string()))?,
        clock: serde_json::from_str(&clock).map_err(|e| corrupt(e.to_string()))?,
        public: row.try_get::<i64, _>(6)? != 0,
        status: TournamentStatus::parse(&status).ok_or_else(|| corrupt(status.clone()))?,
        starts_ms: row.try_get(8)?,
        created_ms: row.try_get(9)?,
        state: row.try_get(10)?,
        version: row.try_get(11)?,
    })
}

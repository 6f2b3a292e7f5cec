//! The store's challenges: made, listed, answered, and gone when they expire.

use sqlx::Row;

use super::people::{CHALLENGES_FROM, CHALLENGES_TO};
use crate::store::{Store, StoreError, StoreResult};
use oaq_net::protocol::ClockSpec;
use oaq_net::social::Challenge;
use oaq_rules::RuleSet;

impl Store {
    /// A new challenge (expired ones are forgotten first, so the table holds only the open).
    pub async fn add_challenge(&self, c: &Challenge, now: i64) -> StoreResult<()> {
        self.delete_expired_challenges(now).await?;
        let rules = serde_json::to_string(&c.rules)
            .unwrap_or_else(|e| unreachable!("rules always serialise: {e}"));
        let clock = serde_json::to_string(&c.clock)
            .unwrap_or_else(|e| unreachable!("clocks always serialise: {e}"));
        sqlx::query(
            "INSERT INTO challenges (id, from_player, to_player, preset, rules, clock, \
             created_ms, expires_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(c.id.as_str())
        .bind(c.from.id.as_str())
        .bind(c.to.id.as_str())
        .bind(c.preset.as_str())
        .bind(rules)
        .bind(clock)
        .bind(now)
        .bind(c.expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Challenges not expired by `now` to `player` (`incoming`) or from them.
    pub async fn challenges(
        &self,
        player: &str,
        incoming: bool,
        now: i64,
    ) -> StoreResult<Vec<Challenge>> {
        let query = if incoming {
            CHALLENGES_TO
        } else {
            CHALLENGES_FROM
        };
        let rows = sqlx::query(query)
            .bind(player)
            .bind(now)
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            if let Some(c) = self.challenge_of_row(row).await? {
                out.push(c);
            }
        }
        Ok(out)
    }

    async fn challenge_of_row(&self, row: sqlx::any::AnyRow) -> StoreResult<Option<Challenge>> {
        let corrupt = |e: serde_json::Error| StoreError::Corrupt(format!("challenge row: {e}"));
        let rules: String = row.try_get(2)?;
        let clock: String = row.try_get(3)?;
        let from: String = row.try_get(5)?;
        let to: String = row.try_get(6)?;
        let (Some(from), Some(to)) = (self.player(&from).await?, self.player(&to).await?) else {
            return Ok(None);
        };
        Ok(Some(Challenge {
            id: row.try_get(0)?,
            from: from.info,
            to: to.info,
            preset: row.try_get(1)?,
            rules: serde_json::from_str::<RuleSet>(&rules).map_err(corrupt)?,
            clock: serde_json::from_str::<ClockSpec>(&clock).map_err(corrupt)?,
            expires_ms: row.try_get(4)?,
        }))
    }

    /// Challenge `id` if it has not expired by `now`.
    pub async fn challenge(&self, id: &str, now: i64) -> StoreResult<Option<Challenge>> {
        let row = sqlx::query(
            "SELECT c.id, c.preset, c.rules, c.clock, c.expires_ms, c.from_player, c.to_player \
             FROM challenges c WHERE c.id = $1 AND c.expires_ms >= $2",
        )
        .bind(id)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(row) => self.challenge_of_row(row).await,
            None => Ok(None),
        }
    }

    /// Take challenge `id` away; whether it was there (only one of two answers wins it).
    pub async fn take_challenge(&self, id: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM challenges WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Challenges from `player` still waiting, and whether one to `other` is among them.
    pub async fn challenges_from(
        &self,
        player: &str,
        other: &str,
        now: i64,
    ) -> StoreResult<(u64, bool)> {
        let rows = sqlx::query(
            "SELECT to_player FROM challenges WHERE from_player = $1 AND expires_ms >= $2",
        )
        .bind(player)
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        let to_other = rows
            .iter()
            .any(|r| r.try_get::<String, _>(0).is_ok_and(|p| p == other));
        Ok((rows.len() as u64, to_other))
    }

    // Profiles.
}

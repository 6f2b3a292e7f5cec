//! The store's moderation: players' reports, and what operators did, as every node reads it.

use sqlx::{Acquire, Row};

use crate::store::{Store, StoreError, StoreResult};

/// A report, for operators.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    pub id: String,
    pub reporter: String,
    pub player: String,
    pub name: String,
    pub reason: String,
    pub room: Option<String>,
    pub at_ms: i64,
}

/// An operator's action, as every node reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Moderation {
    pub id: String,
    pub player: String,
    pub action: String,
    pub detail: String,
    pub at_ms: i64,
}

impl Store {
    /// Reports by `reporter` since `since`, and whether one of them is of `player`.
    pub async fn reports_by(
        &self,
        reporter: &str,
        player: &str,
        since: i64,
    ) -> StoreResult<(u64, bool)> {
        let rows = sqlx::query("SELECT player FROM reports WHERE reporter = $1 AND at_ms >= $2")
            .bind(reporter)
            .bind(since)
            .fetch_all(&self.pool)
            .await?;
        let of_player = rows
            .iter()
            .any(|r| r.try_get::<String, _>(0).is_ok_and(|p| p == player));
        Ok((rows.len() as u64, of_player))
    }

    pub async fn add_report(&self, report: &Report) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO reports (id, reporter, player, reason, room, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(report.id.as_str())
        .bind(report.reporter.as_str())
        .bind(report.player.as_str())
        .bind(report.reason.as_str())
        .bind(report.room.as_deref())
        .bind(report.at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Reports not yet handled (all of them with `all`), oldest first.
    pub async fn reports(&self, all: bool, limit: i64) -> StoreResult<Vec<Report>> {
        let rows = sqlx::query(
            "SELECT r.id, r.reporter, r.player, COALESCE(p.name, ''), r.reason, r.room, r.at_ms \
             FROM reports r LEFT JOIN players p ON p.id = r.player \
             WHERE r.handled = 0 OR $1 = 1 ORDER BY r.at_ms, r.id LIMIT $2",
        )
        .bind(i64::from(all))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(Report {
                    id: r.try_get(0)?,
                    reporter: r.try_get(1)?,
                    player: r.try_get(2)?,
                    name: r.try_get(3)?,
                    reason: r.try_get(4)?,
                    room: r.try_get(5)?,
                    at_ms: r.try_get(6)?,
                })
            })
            .collect()
    }

    /// Record an operator's action and do it, in one transaction: `rename` (the name is
    /// `detail` and stays), `ban` (the player's waiting rooms leave the lobby), `unban`. The
    /// player's reports count as handled. Whether the player exists.
    pub async fn moderate(&self, m: &Moderation) -> StoreResult<bool> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        let change = match m.action.as_str() {
            "rename" => sqlx::query("UPDATE players SET name = $1, name_locked = 1 WHERE id = $2")
                .bind(m.detail.as_str())
                .bind(m.player.as_str()),
            "ban" => {
                sqlx::query("UPDATE players SET banned = 1 WHERE id = $1").bind(m.player.as_str())
            }
            "unban" => {
                sqlx::query("UPDATE players SET banned = 0 WHERE id = $1").bind(m.player.as_str())
            }
            other => return Err(StoreError::Corrupt(format!("moderation action {other:?}"))),
        };
        if change.execute(&mut *tx).await?.rows_affected() == 0 {
            return Ok(false);
        }
        if m.action == "ban" {
            sqlx::query(
                "UPDATE rooms SET listed = 0 WHERE status = 'waiting' AND code IN \
                 (SELECT code FROM room_seats WHERE player = $1)",
            )
            .bind(m.player.as_str())
            .execute(&mut *tx)
            .await?;
            sqlx::query("DELETE FROM challenges WHERE from_player = $1 OR to_player = $1")
                .bind(m.player.as_str())
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("UPDATE reports SET handled = 1 WHERE player = $1")
            .bind(m.player.as_str())
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO moderation (id, player, action, detail, at_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(m.id.as_str())
        .bind(m.player.as_str())
        .bind(m.action.as_str())
        .bind(m.detail.as_str())
        .bind(m.at_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Operators' actions at or after `since`, in order.
    pub async fn moderation_since(&self, since: i64) -> StoreResult<Vec<Moderation>> {
        let rows = sqlx::query(
            "SELECT id, player, action, detail, at_ms FROM moderation WHERE at_ms >= $1 \
             ORDER BY at_ms, id LIMIT 1000",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(Moderation {
                    id: r.try_get(0)?,
                    player: r.try_get(1)?,
                    action: r.try_get(2)?,
                    detail: r.try_get(3)?,
                    at_ms: r.try_get(4)?,
                })
            })
            .collect()
    }
}

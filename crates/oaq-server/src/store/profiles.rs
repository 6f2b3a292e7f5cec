//! The store's profiles: a player's record and rated games.

use sqlx::Row;

use crate::store::{Store, StoreError, StoreResult};
use oaq_net::social::{Outcome, PastGame};

impl Store {
    /// `player`'s rated games won, lost and drawn.
    pub async fn record(&self, player: &str) -> StoreResult<(u64, u64, u64)> {
        let rows = sqlx::query(
            "SELECT outcome, COUNT(*) FROM rated_games WHERE player = $1 GROUP BY outcome",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        let (mut won, mut lost, mut drawn) = (0, 0, 0);
        for row in rows {
            let n = row.try_get::<i64, _>(1)?.max(0) as u64;
            match Outcome::parse(&row.try_get::<String, _>(0)?) {
                Some(Outcome::Won) => won = n,
                Some(Outcome::Lost) => lost = n,
                Some(Outcome::Drawn) => drawn = n,
                None => {}
            }
        }
        Ok((won, lost, drawn))
    }

    /// `player`'s last `limit` rated games, oldest first, with their opponents' names.
    pub async fn rated_games(&self, player: &str, limit: usize) -> StoreResult<Vec<PastGame>> {
        let rows = sqlx::query(
            "SELECT g.code, r.preset, g.at_ms, g.rating, g.outcome, o.name FROM rated_games g \
             JOIN rooms r ON r.code = g.code \
             LEFT JOIN room_seats s ON s.code = g.code AND s.player <> g.player \
             LEFT JOIN players o ON o.id = s.player \
             WHERE g.player = $1 ORDER BY g.at_ms DESC, g.code, s.seat LIMIT $2",
        )
        .bind(player)
        .bind((limit * 3) as i64)
        .fetch_all(&self.pool)
        .await?;
        let mut games: Vec<PastGame> = Vec::new();
        for row in rows {
            let code: String = row.try_get(0)?;
            let opponent: Option<String> = row.try_get(5)?;
            if let Some(last) = games.last_mut().filter(|g| g.code == code) {
                last.opponents.extend(opponent);
                continue;
            }
            if games.len() == limit {
                break;
            }
            let outcome: String = row.try_get(4)?;
            games.push(PastGame {
                code,
                preset: row.try_get(1)?,
                at_ms: row.try_get(2)?,
                rating: crate::ratings::shown(row.try_get(3)?),
                outcome: Outcome::parse(&outcome).ok_or_else(|| {
                    StoreError::Corrupt(format!("rated game outcome {outcome:?}"))
                })?,
                opponents: opponent.into_iter().collect(),
            });
        }
        games.reverse();
        Ok(games)
    }

    /// Finished games of two players, oldest first: their codes, from `since_ms` on.
    pub async fn finished_games(&self, since_ms: i64, limit: u64) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT code FROM rooms WHERE status = 'finished' AND players = 2 \
             AND updated_ms >= $1 ORDER BY updated_ms, code LIMIT $2",
        )
        .bind(since_ms)
        .bind(limit.min(i64::MAX as u64) as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    // Reports and moderation.
}

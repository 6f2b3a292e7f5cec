//! The store's friends and blocks: friend codes, requests, friendships, blocks, and whether two
//! players have played together.

use sqlx::{Acquire, Row};

use super::people::{BLOCKED, FRIENDS, INCOMING, OUTGOING, infos};
use crate::store::{Store, StoreResult};
use oaq_net::protocol::PlayerInfo;

/// Where two players stand after one asks the other to be friends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// A request now waits for the other's answer.
    Asked,
    /// The other had asked first: now friends.
    Friends,
    AlreadyAsked,
    AlreadyFriends,
}

impl Store {
    /// Give `player` friend code `code` if they have none; `Conflict` if another has it.
    pub async fn put_friend_code(&self, player: &str, code: &str) -> StoreResult<()> {
        sqlx::query("UPDATE players SET friend_code = $1 WHERE id = $2 AND friend_code IS NULL")
            .bind(code)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn player_by_friend_code(&self, code: &str) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT id FROM players WHERE friend_code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    // Friends and blocks.

    /// `player`'s friends, the requests to them and from them, and whom they block.
    pub async fn relations(
        &self,
        player: &str,
    ) -> StoreResult<(
        Vec<PlayerInfo>,
        Vec<PlayerInfo>,
        Vec<PlayerInfo>,
        Vec<PlayerInfo>,
    )> {
        let mut lists = Vec::with_capacity(4);
        for query in [FRIENDS, INCOMING, OUTGOING, BLOCKED] {
            let rows = sqlx::query(query)
                .bind(player)
                .fetch_all(&self.pool)
                .await?;
            lists.push(infos(rows)?);
        }
        let blocked = lists.pop().unwrap_or_default();
        let outgoing = lists.pop().unwrap_or_default();
        let incoming = lists.pop().unwrap_or_default();
        let friends = lists.pop().unwrap_or_default();
        Ok((friends, incoming, outgoing, blocked))
    }
    /// How many requests `player` has waiting for others' answers.
    pub async fn requests_of(&self, player: &str) -> StoreResult<u64> {
        let n: i64 =
            sqlx::query("SELECT COUNT(*) FROM friends WHERE player = $1 AND state = 'asked'")
                .bind(player)
                .fetch_one(&self.pool)
                .await?
                .try_get(0)?;
        Ok(n.max(0) as u64)
    }

    async fn friend_state(&self, player: &str, other: &str) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT state FROM friends WHERE player = $1 AND other = $2")
            .bind(player)
            .bind(other)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    pub async fn are_friends(&self, a: &str, b: &str) -> StoreResult<bool> {
        Ok(self.friend_state(a, b).await?.as_deref() == Some("friends"))
    }

    /// `player` asks `other` to be friends (or accepts their request).
    pub async fn ask_friend(&self, player: &str, other: &str, now: i64) -> StoreResult<Asked> {
        match self.friend_state(player, other).await?.as_deref() {
            Some("friends") => return Ok(Asked::AlreadyFriends),
            Some(_) => return Ok(Asked::AlreadyAsked),
            None => {}
        }
        if self.friend_state(other, player).await?.as_deref() == Some("asked") {
            self.befriend(player, other, now).await?;
            return Ok(Asked::Friends);
        }
        sqlx::query(
            "INSERT INTO friends (player, other, state, since_ms) VALUES ($1, $2, 'asked', $3) \
             ON CONFLICT (player, other) DO NOTHING",
        )
        .bind(player)
        .bind(other)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(Asked::Asked)
    }

    async fn befriend(&self, a: &str, b: &str, now: i64) -> StoreResult<()> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        for (x, y) in [(a, b), (b, a)] {
            sqlx::query(
                "INSERT INTO friends (player, other, state, since_ms) \
                 VALUES ($1, $2, 'friends', $3) \
                 ON CONFLICT (player, other) DO UPDATE SET state = 'friends', since_ms = $3",
            )
            .bind(x)
            .bind(y)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// `player` answers `other`'s request; whether there was one.
    pub async fn answer_friend(
        &self,
        player: &str,
        other: &str,
        accept: bool,
        now: i64,
    ) -> StoreResult<bool> {
        if self.friend_state(other, player).await?.as_deref() != Some("asked") {
            return Ok(false);
        }
        if accept {
            self.befriend(player, other, now).await?;
        } else {
            sqlx::query("DELETE FROM friends WHERE player = $1 AND other = $2")
                .bind(other)
                .bind(player)
                .execute(&self.pool)
                .await?;
        }
        Ok(true)
    }

    /// No friendship or request either way between `a` and `b`; whether there was one.
    pub async fn unfriend(&self, a: &str, b: &str) -> StoreResult<bool> {
        let done = sqlx::query(
            "DELETE FROM friends WHERE (player = $1 AND other = $2) OR (player = $2 AND other = $1)",
        )
        .bind(a)
        .bind(b)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    pub async fn unblock(&self, player: &str, other: &str) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM blocks WHERE player = $1 AND other = $2")
            .bind(player)
            .bind(other)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Whether either of `a` and `b` blocks the other.
    pub async fn blocked_between(&self, a: &str, b: &str) -> StoreResult<bool> {
        let row = sqlx::query(
            "SELECT 1 FROM blocks WHERE (player = $1 AND other = $2) OR (player = $2 AND other = $1)",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    /// Whether `a` and `b` sat in one room together.
    pub async fn played_together(&self, a: &str, b: &str) -> StoreResult<bool> {
        let row = sqlx::query(
            "SELECT 1 FROM room_seats x JOIN room_seats y ON x.code = y.code \
             WHERE x.player = $1 AND y.player = $2 LIMIT 1",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }

    // Challenges.
}

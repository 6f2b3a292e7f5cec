//! The store's bots: a player turned into one (for good), its API token kept as a hash, the
//! bots near a rating, and the games a bot is playing.

use sqlx::{Acquire, Row};

use crate::store::{PlayerRow, Store, StoreResult, player_row};
use oaq_net::protocol::PlayerInfo;

/// Why a player could not become a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotABot {
    NoSuchPlayer,
    AlreadyABot,
    /// A bot is an account its owner can sign back into.
    NoSignInName,
    Child,
    /// Its rating would be a person's, not its own.
    HasPlayed,
    Banned,
}

impl NotABot {
    pub fn message(self) -> &'static str {
        match self {
            NotABot::NoSuchPlayer => "no such player",
            NotABot::AlreadyABot => "this player is a bot already: ask for a new token instead",
            NotABot::NoSignInName => {
                "a bot needs a sign-in name and password first, so that its owner can come back to it"
            }
            NotABot::Child => "child mode: a child's account cannot become a bot",
            NotABot::HasPlayed => {
                "a bot starts with no rated game (its rating is its own): make a new player for your program"
            }
            NotABot::Banned => "this player is banned",
        }
    }
}

impl Store {
    /// Turn `player` into a bot with its first API token, in one transaction: the conditions
    /// are the update's own, so two requests at once cannot both pass them.
    pub async fn become_bot(
        &self,
        player: &str,
        token_hash: &str,
        now: i64,
    ) -> StoreResult<Result<(), NotABot>> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        let done = sqlx::query(
            "UPDATE players SET bot = 1 WHERE id = $1 AND bot = 0 AND login IS NOT NULL \
             AND child = 0 AND games = 0 AND banned = 0",
        )
        .bind(player)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            tx.rollback().await?;
            // The connection goes back to the pool before the reason is read: SQLite's pool
            // has one, and asking for a second while holding it would wait for itself.
            drop(conn);
            return Ok(Err(self.why_not_a_bot(player).await?));
        }
        sqlx::query("INSERT INTO bot_tokens (token_hash, player, created_ms) VALUES ($1, $2, $3)")
            .bind(token_hash)
            .bind(player)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    async fn why_not_a_bot(&self, player: &str) -> StoreResult<NotABot> {
        let row = sqlx::query(
            "SELECT bot, login IS NOT NULL, child, games, banned FROM players WHERE id = $1",
        )
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(NotABot::NoSuchPlayer);
        };
        let flag = |i: usize| -> StoreResult<bool> { Ok(row.try_get::<i64, _>(i)? != 0) };
        Ok(if flag(0)? {
            NotABot::AlreadyABot
        } else if flag(4)? {
            NotABot::Banned
        } else if flag(2)? {
            NotABot::Child
        } else if !flag(1)? {
            NotABot::NoSignInName
        } else {
            NotABot::HasPlayed
        })
    }

    /// Bot `player`'s token from now on (`None`: none): the old one stops working at once.
    /// Whether `player` is a bot (nothing changes for anyone else).
    pub async fn set_bot_token(
        &self,
        player: &str,
        token_hash: Option<&str>,
        now: i64,
    ) -> StoreResult<bool> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        let bot = sqlx::query("SELECT bot FROM players WHERE id = $1 AND bot = 1")
            .bind(player)
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        if !bot {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("DELETE FROM bot_tokens WHERE player = $1")
            .bind(player)
            .execute(&mut *tx)
            .await?;
        if let Some(hash) = token_hash {
            sqlx::query(
                "INSERT INTO bot_tokens (token_hash, player, created_ms) VALUES ($1, $2, $3)",
            )
            .bind(hash)
            .bind(player)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The bot an API token belongs to: none for a token revoked or replaced, nor for a bot
    /// banned.
    pub async fn bot_by_token(&self, token_hash: &str) -> StoreResult<Option<PlayerRow>> {
        let row = sqlx::query(
            "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games, p.bot \
             FROM bot_tokens t JOIN players p ON p.id = t.player \
             WHERE t.token_hash = $1 AND p.bot = 1 AND p.banned = 0",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.map(player_row).transpose()
    }

    /// Up to `limit` bots not banned, nearest `rating` first.
    pub async fn bots_near(&self, rating: f64, limit: i64) -> StoreResult<Vec<PlayerInfo>> {
        let rows = sqlx::query(
            "SELECT id, name, rating, deviation, volatility, games, bot FROM players \
             WHERE bot = 1 AND banned = 0 ORDER BY ABS(rating - $1), id LIMIT $2",
        )
        .bind(rating)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| player_row(r).map(|p| p.info))
            .collect()
    }

    /// The rooms whose game `player` is playing now (a bot's event stream starts with them).
    pub async fn games_in_progress(&self, player: &str) -> StoreResult<Vec<String>> {
        self.rooms_of(player, "playing").await
    }
}

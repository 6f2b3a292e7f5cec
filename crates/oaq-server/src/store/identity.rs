//! The store's identities: players and their devices with their tokens, link and recovery codes,
//! sign-in names. Codes and tokens are kept only as hashes; passwords only as argon2id strings.

use sqlx::{Acquire, Row};

use super::people::flag;
use crate::store::{PlayerRow, Store, StoreResult, player_row};

/// A player as a token signs them in: the row, the device, and what the server says of them.
#[derive(Clone, Debug)]
pub struct Account {
    pub row: PlayerRow,
    pub device: String,
    pub child: bool,
    pub banned: bool,
    /// An operator set the name: the player's own `hello` does not change it.
    pub name_locked: bool,
}

/// What a player's own profile adds to their row.
#[derive(Clone, Debug, Default)]
pub struct Private {
    pub child: bool,
    pub banned: bool,
    pub login: Option<String>,
    pub recovery: bool,
    pub friend_code: Option<String>,
}

impl Store {
    // Devices.

    /// A new player and their first device, in one transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn create_player(
        &self,
        id: &str,
        name: &str,
        token_hash: &str,
        device: &str,
        label: &str,
        child: bool,
        rating: crate::ratings::Rating,
        now: i64,
    ) -> StoreResult<()> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        sqlx::query(
            "INSERT INTO players (id, name, token_hash, rating, deviation, volatility, games, \
             created_ms, child) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8)",
        )
        .bind(id)
        .bind(name)
        .bind(token_hash)
        .bind(rating.rating)
        .bind(rating.deviation)
        .bind(rating.volatility)
        .bind(now)
        .bind(i64::from(child))
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO devices (id, player, token_hash, label, created_ms, last_ms) \
             VALUES ($1, $2, $3, $4, $5, $5)",
        )
        .bind(device)
        .bind(id)
        .bind(token_hash)
        .bind(label)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The player a device's token signs in, with that device.
    pub async fn account_by_token(&self, token_hash: &str) -> StoreResult<Option<Account>> {
        let row = sqlx::query(
            "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games, d.id, p.child, \
             p.banned, p.name_locked, p.bot FROM devices d JOIN players p ON p.id = d.player \
             WHERE d.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(Account {
            device: row.try_get(6)?,
            child: flag(&row, 7)?,
            banned: flag(&row, 8)?,
            name_locked: flag(&row, 9)?,
            row: player_row(row)?,
        }))
    }

    /// A device newly signed in as `player`.
    pub async fn add_device(
        &self,
        player: &str,
        device: &str,
        token_hash: &str,
        label: &str,
        now: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO devices (id, player, token_hash, label, created_ms, last_ms) \
             VALUES ($1, $2, $3, $4, $5, $5)",
        )
        .bind(device)
        .bind(player)
        .bind(token_hash)
        .bind(label)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The device was seen now (and is called `label`, when it says).
    pub async fn touch_device(
        &self,
        device: &str,
        label: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        match label {
            Some(label) => sqlx::query("UPDATE devices SET last_ms = $1, label = $2 WHERE id = $3")
                .bind(now)
                .bind(label)
                .bind(device),
            None => sqlx::query("UPDATE devices SET last_ms = $1 WHERE id = $2")
                .bind(now)
                .bind(device),
        }
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `player`'s devices, most recently seen first: (id, label, created, last seen).
    pub async fn devices(&self, player: &str) -> StoreResult<Vec<(String, String, i64, i64)>> {
        let rows = sqlx::query(
            "SELECT id, label, created_ms, last_ms FROM devices WHERE player = $1 \
             ORDER BY last_ms DESC, id LIMIT 100",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
            .collect()
    }

    pub async fn device_count(&self, player: &str) -> StoreResult<u64> {
        let n: i64 = sqlx::query("SELECT COUNT(*) FROM devices WHERE player = $1")
            .bind(player)
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        Ok(n.max(0) as u64)
    }

    /// Sign device `id` of `player` out, with the push subscriptions it made; whether it was
    /// theirs.
    pub async fn revoke_device(&self, player: &str, id: &str) -> StoreResult<bool> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        let done = sqlx::query("DELETE FROM devices WHERE id = $1 AND player = $2")
            .bind(id)
            .bind(player)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query("DELETE FROM push_subscriptions WHERE device = $1 AND player = $2")
            .bind(id)
            .bind(player)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    // Codes and sign-in names.

    /// `player`'s one link code now (any earlier one of theirs, and every expired one, goes).
    pub async fn put_link_code(
        &self,
        player: &str,
        code_hash: &str,
        expires_ms: i64,
        now: i64,
    ) -> StoreResult<()> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        sqlx::query("DELETE FROM link_codes WHERE player = $1 OR expires_ms < $2")
            .bind(player)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO link_codes (code_hash, player, expires_ms) VALUES ($1, $2, $3)")
            .bind(code_hash)
            .bind(player)
            .bind(expires_ms)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The player of a link code still valid, which is used up.
    pub async fn take_link_code(&self, code_hash: &str, now: i64) -> StoreResult<Option<String>> {
        let row =
            sqlx::query("DELETE FROM link_codes WHERE code_hash = $1 RETURNING player, expires_ms")
                .bind(code_hash)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else { return Ok(None) };
        let expires: i64 = row.try_get(1)?;
        Ok((expires >= now).then(|| row.try_get(0)).transpose()?)
    }

    /// The player whose unexpired link code this is, leaving the code where it is.
    pub async fn peek_link_code(&self, code_hash: &str, now: i64) -> StoreResult<Option<String>> {
        let row =
            sqlx::query("SELECT player FROM link_codes WHERE code_hash = $1 AND expires_ms >= $2")
                .bind(code_hash)
                .bind(now)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    pub async fn set_recovery(&self, player: &str, code_hash: &str) -> StoreResult<()> {
        sqlx::query("UPDATE players SET recovery_hash = $1 WHERE id = $2")
            .bind(code_hash)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn player_by_recovery(&self, code_hash: &str) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT id FROM players WHERE recovery_hash = $1")
            .bind(code_hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// Set `player`'s sign-in name and password; `Conflict` when another has that name.
    pub async fn set_login(&self, player: &str, login: &str, phc: &str) -> StoreResult<()> {
        sqlx::query("UPDATE players SET login = $1, password_hash = $2 WHERE id = $3")
            .bind(login)
            .bind(phc)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The player with sign-in name `login`, and their password's argon2id string.
    pub async fn login(&self, login: &str) -> StoreResult<Option<(String, String)>> {
        let row = sqlx::query(
            "SELECT id, password_hash FROM players WHERE login = $1 AND password_hash IS NOT NULL",
        )
        .bind(login)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .map(|r| Ok::<_, sqlx::Error>((r.try_get(0)?, r.try_get(1)?)))
            .transpose()?)
    }

    pub async fn private(&self, player: &str) -> StoreResult<Private> {
        let row = sqlx::query(
            "SELECT child, banned, login, \
             CASE WHEN recovery_hash IS NULL THEN CAST(0 AS BIGINT) ELSE CAST(1 AS BIGINT) END, \
             friend_code FROM players \
             WHERE id = $1",
        )
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(Private::default());
        };
        Ok(Private {
            child: flag(&row, 0)?,
            banned: flag(&row, 1)?,
            login: row.try_get(2)?,
            recovery: flag(&row, 3)?,
            friend_code: row.try_get(4)?,
        })
    }
}

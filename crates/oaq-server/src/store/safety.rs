//! The store's side of keeping players safe from one another: an account's credentials for
//! the changes that need them, other devices signed out, child mode's delayed end, confirmed
//! e-mail addresses and the addresses that refused mail, and caps written in the same
//! statement as what they count.

use sqlx::{Acquire, Row};

use crate::store::{Backend, Store, StoreResult};

/// Held to the end of `tx` on PostgreSQL: one transaction at a time per `key` (a player), so
/// a cap counted in one statement cannot be passed by another committing beside it. SQLite
/// writes one transaction at a time anyway.
pub(super) async fn serialise(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    key: &str,
) -> StoreResult<()> {
    if backend == Backend::Postgres {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(key)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// What proves a player is the account's owner: the sign-in name's password (an argon2id
/// string) and the recovery code's hash, where they were set.
#[derive(Clone, Debug, Default)]
pub struct Credentials {
    pub login: Option<String>,
    pub password_hash: Option<String>,
    pub recovery_hash: Option<String>,
}

impl Credentials {
    /// Whether a change to the account must show one of them.
    pub fn any(&self) -> bool {
        self.password_hash.is_some() || self.recovery_hash.is_some()
    }
}

/// What the meeting rules ask of a player, as the store has it now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub bot: bool,
    pub child: bool,
    pub banned: bool,
}

impl Store {
    pub async fn credentials(&self, player: &str) -> StoreResult<Credentials> {
        let row =
            sqlx::query("SELECT login, password_hash, recovery_hash FROM players WHERE id = $1")
                .bind(player)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else {
            return Ok(Credentials::default());
        };
        Ok(Credentials {
            login: row.try_get(0)?,
            password_hash: row.try_get(1)?,
            recovery_hash: row.try_get(2)?,
        })
    }

    /// Sign out every device of `player` but `keep`, with their push subscriptions; their ids.
    pub async fn revoke_other_devices(&self, player: &str, keep: &str) -> StoreResult<Vec<String>> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        let rows = sqlx::query("SELECT id FROM devices WHERE player = $1 AND id <> $2")
            .bind(player)
            .bind(keep)
            .fetch_all(&mut *tx)
            .await?;
        let ids = rows
            .into_iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<Vec<_>, _>>()?;
        sqlx::query(
            "DELETE FROM push_subscriptions WHERE player = $1 AND device <> $2 AND device <> ''",
        )
        .bind(player)
        .bind(keep)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM devices WHERE player = $1 AND id <> $2")
            .bind(player)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(ids)
    }

    /// What the meeting rules ask of `player` now: a bot, in child mode, banned (`None`: no
    /// such player).
    pub async fn standing(&self, player: &str, now: i64) -> StoreResult<Option<Standing>> {
        let row = sqlx::query("SELECT bot, banned FROM players WHERE id = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let bot = row.try_get::<i64, _>(0)? != 0;
        let banned = row.try_get::<i64, _>(1)? != 0;
        let child = self.is_child(player, now).await?;
        Ok(Some(Standing { bot, child, banned }))
    }

    /// Whether `player` is in child mode at `now`: a switch-off asked without a password takes
    /// effect once its wait is over (and is written then).
    pub async fn is_child(&self, player: &str, now: i64) -> StoreResult<bool> {
        let row = sqlx::query("SELECT child, child_off_ms FROM players WHERE id = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(false) };
        let child = row.try_get::<i64, _>(0)? != 0;
        let off: Option<i64> = row.try_get(1)?;
        if child && off.is_some_and(|at| at <= now) {
            sqlx::query(
                "UPDATE players SET child = 0, child_off_ms = NULL WHERE id = $1 \
                 AND child_off_ms IS NOT NULL AND child_off_ms <= $2",
            )
            .bind(player)
            .bind(now)
            .execute(&self.pool)
            .await?;
            return Ok(false);
        }
        Ok(child)
    }

    /// Child mode on or off at once (any waiting switch-off is forgotten).
    pub async fn set_child_now(&self, player: &str, child: bool) -> StoreResult<()> {
        sqlx::query("UPDATE players SET child = $1, child_off_ms = NULL WHERE id = $2")
            .bind(i64::from(child))
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Child mode ends at `at` unless it is switched on again before; when it ends (an earlier
    /// request keeps its time).
    pub async fn child_off_at(&self, player: &str, at: i64) -> StoreResult<i64> {
        sqlx::query("UPDATE players SET child_off_ms = $1 WHERE id = $2 AND child_off_ms IS NULL")
            .bind(at)
            .bind(player)
            .execute(&self.pool)
            .await?;
        let row = sqlx::query("SELECT child_off_ms FROM players WHERE id = $1")
            .bind(player)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<Option<i64>, _>(0)?.unwrap_or(at))
    }

    /// When child mode's switch-off takes effect, if one waits.
    pub async fn child_off_ms(&self, player: &str) -> StoreResult<Option<i64>> {
        let row = sqlx::query("SELECT child_off_ms FROM players WHERE id = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => row.try_get(0)?,
            None => None,
        })
    }

    /// `player` blocks `other`, unless they block `cap` players already: whether it was
    /// written (already blocked counts as written). Friendship, requests and challenges
    /// between them end. The cap is counted in the statement that inserts.
    pub async fn block_capped(
        &self,
        player: &str,
        other: &str,
        cap: u64,
        now: i64,
    ) -> StoreResult<bool> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        serialise(self.backend, &mut tx, player).await?;
        let done = sqlx::query(
            "INSERT INTO blocks (player, other, at_ms) SELECT $1, $2, $3 \
             WHERE (SELECT COUNT(*) FROM blocks WHERE player = $1) < $4 \
             ON CONFLICT (player, other) DO NOTHING",
        )
        .bind(player)
        .bind(other)
        .bind(now)
        .bind(cap.min(i64::MAX as u64) as i64)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            let already = sqlx::query("SELECT 1 FROM blocks WHERE player = $1 AND other = $2")
                .bind(player)
                .bind(other)
                .fetch_optional(&mut *tx)
                .await?;
            if already.is_none() {
                return Ok(false);
            }
        }
        sqlx::query(
            "DELETE FROM friends WHERE (player = $1 AND other = $2) OR (player = $2 AND other = $1)",
        )
        .bind(player)
        .bind(other)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM challenges WHERE (from_player = $1 AND to_player = $2) \
             OR (from_player = $2 AND to_player = $1)",
        )
        .bind(player)
        .bind(other)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Forget challenges that expired before `now`; how many.
    pub async fn delete_expired_challenges(&self, now: i64) -> StoreResult<u64> {
        let done = sqlx::query("DELETE FROM challenges WHERE expires_ms < $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Whether any two of `players` block one another.
    pub async fn any_blocked(&self, players: &[&str]) -> StoreResult<bool> {
        for (i, a) in players.iter().enumerate() {
            for b in &players[i + 1..] {
                if self.blocked_between(a, b).await? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The players `player` blocks or is blocked by (at most the cap of each side).
    pub async fn blocks_of(&self, player: &str) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT other FROM blocks WHERE player = $1 UNION SELECT player FROM blocks \
             WHERE other = $1",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| Ok(r.try_get::<String, _>(0)?))
            .collect()
    }

    // E-mail.

    /// Keep `address` as `player`'s, not yet confirmed, with the confirmation's nonce (none:
    /// the address is removed).
    pub async fn set_email(
        &self,
        player: &str,
        address: &str,
        nonce: Option<&str>,
    ) -> StoreResult<()> {
        sqlx::query(
            "UPDATE players SET email = $1, email_confirmed = 0, email_nonce = $2 WHERE id = $3",
        )
        .bind(address)
        .bind(nonce)
        .bind(player)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `player`'s address and whether it is confirmed.
    pub async fn email(&self, player: &str) -> StoreResult<(String, bool)> {
        let row = sqlx::query("SELECT email, email_confirmed FROM players WHERE id = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => (r.try_get(0)?, r.try_get::<i64, _>(1)? != 0),
            None => (String::new(), false),
        })
    }

    /// Follow a confirmation link: the address it confirmed, once (the nonce is used up).
    pub async fn confirm_email(&self, player: &str, nonce: &str) -> StoreResult<Option<String>> {
        let row = sqlx::query(
            "UPDATE players SET email_confirmed = 1, email_nonce = NULL \
             WHERE id = $1 AND email_nonce = $2 AND email <> '' RETURNING email",
        )
        .bind(player)
        .bind(nonce)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    /// Whether the owner of the address with this keyed hash asked to be sent nothing.
    pub async fn mail_refused(&self, address_hash: &str) -> StoreResult<bool> {
        let row = sqlx::query("SELECT 1 FROM mail_refused WHERE address_hash = $1")
            .bind(address_hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Send nothing more to `address` (its keyed hash `address_hash`): no player's daily
    /// e-mail, no confirmation.
    pub async fn refuse_mail(
        &self,
        address: &str,
        address_hash: &str,
        now: i64,
    ) -> StoreResult<()> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        sqlx::query(
            "INSERT INTO mail_refused (address_hash, at_ms) VALUES ($1, $2) \
             ON CONFLICT (address_hash) DO NOTHING",
        )
        .bind(address_hash)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE players SET email_digest = 0, email_confirmed = 0, email_nonce = NULL \
             WHERE LOWER(email) = LOWER($1)",
        )
        .bind(address)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Count one confirmation e-mail to the address with this keyed hash on `day`, unless
    /// `cap` went already: whether it may be sent. Counted and checked in one statement.
    pub async fn count_mail(&self, address_hash: &str, day: i64, cap: u64) -> StoreResult<bool> {
        let done = sqlx::query(
            "INSERT INTO mail_sent (address_hash, day, sent) VALUES ($1, $2, 1) \
             ON CONFLICT (address_hash, day) DO UPDATE SET sent = mail_sent.sent + 1 \
             WHERE mail_sent.sent < $3",
        )
        .bind(address_hash)
        .bind(day)
        .bind(cap.min(i64::MAX as u64) as i64)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    // Vacations.

    /// When `player` last started a vacation (0: never).
    pub async fn vacation_started(&self, player: &str) -> StoreResult<i64> {
        let row = sqlx::query("SELECT vacation_started_ms FROM players WHERE id = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get(0)?,
            None => 0,
        })
    }

    pub async fn set_vacation_started(&self, player: &str, at: i64) -> StoreResult<()> {
        sqlx::query("UPDATE players SET vacation_started_ms = $1 WHERE id = $2")
            .bind(at)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

//! The store's notifications: the server's own keys, the devices subscribed to pushes, each
//! player's choices and the daily e-mail's schedule.

use sqlx::{Acquire, Row};

use crate::store::{Store, StoreResult};
use oaq_net::notify::{NotifySettings, PushSubscription};
use oaq_session::Lang;

fn lang_of(text: &str) -> Lang {
    if text == "vi" { Lang::Vi } else { Lang::En }
}

fn lang_text(lang: Lang) -> &'static str {
    match lang {
        Lang::Vi => "vi",
        Lang::En => "en",
    }
}

impl Store {
    /// The key called `name`, made by `make` and stored the first time (by whichever node
    /// comes first: every node then reads the same one).
    pub async fn server_key(
        &self,
        name: &str,
        make: impl FnOnce() -> String,
    ) -> StoreResult<String> {
        const READ: &str = "SELECT value FROM server_keys WHERE name = $1";
        let row = sqlx::query(READ)
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        if let Some(row) = row {
            return Ok(row.try_get(0)?);
        }
        sqlx::query(
            "INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(make())
        .execute(&self.pool)
        .await?;
        let row = sqlx::query(READ).bind(name).fetch_one(&self.pool).await?;
        Ok(row.try_get(0)?)
    }

    pub async fn notify_settings(&self, player: &str) -> StoreResult<NotifySettings> {
        let row = sqlx::query(
            "SELECT notify_turn, notify_challenges, notify_ended, email, email_digest, \
             email_lang FROM players WHERE id = $1",
        )
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return Ok(NotifySettings::default());
        };
        Ok(NotifySettings {
            your_turn: r.try_get::<i64, _>(0)? != 0,
            challenges: r.try_get::<i64, _>(1)? != 0,
            ended: r.try_get::<i64, _>(2)? != 0,
            email: r.try_get(3)?,
            digest: r.try_get::<i64, _>(4)? != 0,
            lang: lang_of(&r.try_get::<String, _>(5)?),
            confirmed: false,
        })
    }

    /// The player's choices; the address is kept apart (`set_email`), as it must be confirmed.
    pub async fn set_notify_settings(&self, player: &str, s: &NotifySettings) -> StoreResult<()> {
        sqlx::query(
            "UPDATE players SET notify_turn = $1, notify_challenges = $2, notify_ended = $3, \
             email_digest = $4, email_lang = $5 WHERE id = $6",
        )
        .bind(i64::from(s.your_turn))
        .bind(i64::from(s.challenges))
        .bind(i64::from(s.ended))
        .bind(i64::from(s.digest))
        .bind(lang_text(s.lang))
        .bind(player)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn subscriptions(&self, player: &str) -> StoreResult<Vec<PushSubscription>> {
        let rows = sqlx::query(
            "SELECT endpoint, p256dh, auth, lang FROM push_subscriptions WHERE player = $1 \
             ORDER BY created_ms",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(PushSubscription {
                    endpoint: r.try_get(0)?,
                    p256dh: r.try_get(1)?,
                    auth: r.try_get(2)?,
                    lang: lang_of(&r.try_get::<String, _>(3)?),
                })
            })
            .collect()
    }

    /// Keep `sub` as `player`'s, from their device `device` (a device subscribed again, or by
    /// another player, is theirs now), unless `player` has `cap` others already: whether it
    /// was kept. The cap is counted in the statement that inserts.
    pub async fn subscribe(
        &self,
        player: &str,
        device: &str,
        sub: &PushSubscription,
        now: i64,
        cap: u64,
    ) -> StoreResult<bool> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        super::safety::serialise(self.backend, &mut tx, player).await?;
        let done = sqlx::query(
            "INSERT INTO push_subscriptions (endpoint, player, p256dh, auth, lang, created_ms, \
             device) SELECT $1, $2, $3, $4, $5, $6, $7 WHERE (SELECT COUNT(*) FROM \
             push_subscriptions WHERE player = $2 AND endpoint <> $1) < $8 \
             ON CONFLICT (endpoint) DO UPDATE SET \
             player = excluded.player, p256dh = excluded.p256dh, auth = excluded.auth, \
             lang = excluded.lang, device = excluded.device",
        )
        .bind(sub.endpoint.as_str())
        .bind(player)
        .bind(sub.p256dh.as_str())
        .bind(sub.auth.as_str())
        .bind(lang_text(sub.lang))
        .bind(now)
        .bind(device)
        .bind(cap.min(i64::MAX as u64) as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected() > 0)
    }

    /// Forget the subscription at `endpoint` (`player`'s only, when given). Whether there was
    /// one.
    pub async fn unsubscribe(&self, endpoint: &str, player: Option<&str>) -> StoreResult<bool> {
        let done = match player {
            Some(p) => {
                sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1 AND player = $2")
                    .bind(endpoint)
                    .bind(p)
                    .execute(&self.pool)
                    .await?
            }
            None => {
                sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                    .bind(endpoint)
                    .execute(&self.pool)
                    .await?
            }
        };
        Ok(done.rows_affected() > 0)
    }

    /// Players whose daily e-mail is due at `now` (none sent in the last `day_ms`): id,
    /// address and language; at most `limit`.
    pub async fn digests_due(
        &self,
        now: i64,
        day_ms: i64,
        limit: i64,
    ) -> StoreResult<Vec<(String, String, Lang)>> {
        let rows = sqlx::query(
            "SELECT id, email, email_lang FROM players WHERE email_digest = 1 AND email <> '' \
             AND email_confirmed = 1 AND digest_ms <= $1 AND banned = 0 \
             ORDER BY digest_ms LIMIT $2",
        )
        .bind(now - day_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    r.try_get(1)?,
                    lang_of(&r.try_get::<String, _>(2)?),
                ))
            })
            .collect()
    }

    /// The daily e-mail of `player` was dealt with at `now`.
    pub async fn digest_done(&self, player: &str, now: i64) -> StoreResult<()> {
        sqlx::query("UPDATE players SET digest_ms = $1 WHERE id = $2")
            .bind(now)
            .bind(player)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

//! The store's people: devices and their tokens, link and recovery codes, sign-in names,
//! friends and blocks, challenges, rated games (profiles), reports and what operators did.
//! Codes and tokens are kept only as hashes; passwords only as argon2id strings.

use sqlx::{Acquire, Row};

use crate::store::{PlayerRow, Store, StoreError, StoreResult, player_row};
use oaq_net::protocol::{ClockSpec, PlayerInfo};
use oaq_net::social::{Challenge, Outcome, PastGame};
use oaq_rules::RuleSet;

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

/// The player columns of the queries below (as `player_row` reads them), written out in each
/// so that every query stays a constant.
const FRIENDS: &str = "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games \
     FROM friends f JOIN players p ON p.id = f.other \
     WHERE f.player = $1 AND f.state = 'friends' ORDER BY p.name, p.id LIMIT 500";
const INCOMING: &str = "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games \
     FROM friends f JOIN players p ON p.id = f.player \
     WHERE f.other = $1 AND f.state = 'asked' ORDER BY f.since_ms DESC LIMIT 100";
const OUTGOING: &str = "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games \
     FROM friends f JOIN players p ON p.id = f.other \
     WHERE f.player = $1 AND f.state = 'asked' ORDER BY f.since_ms DESC LIMIT 100";
const BLOCKED: &str = "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games \
     FROM blocks b JOIN players p ON p.id = b.other \
     WHERE b.player = $1 ORDER BY b.at_ms DESC LIMIT 500";
const CHALLENGES_TO: &str = "SELECT c.id, c.preset, c.rules, c.clock, c.expires_ms, \
     c.from_player, c.to_player FROM challenges c WHERE c.to_player = $1 AND c.expires_ms >= $2 \
     ORDER BY c.created_ms DESC LIMIT 100";
const CHALLENGES_FROM: &str = "SELECT c.id, c.preset, c.rules, c.clock, c.expires_ms, \
     c.from_player, c.to_player FROM challenges c WHERE c.from_player = $1 \
     AND c.expires_ms >= $2 ORDER BY c.created_ms DESC LIMIT 100";

fn infos(rows: Vec<sqlx::any::AnyRow>) -> StoreResult<Vec<PlayerInfo>> {
    rows.into_iter()
        .map(|r| player_row(r).map(|p| p.info))
        .collect()
}

fn flag(row: &sqlx::any::AnyRow, i: usize) -> StoreResult<bool> {
    Ok(row.try_get::<i64, _>(i)? != 0)
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
             p.banned, p.name_locked FROM devices d JOIN players p ON p.id = d.player \
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

    // Reports and moderation.

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

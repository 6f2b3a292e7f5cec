//! The server's store: players, rooms and every room's event log, in SQLite (one machine) or
//! PostgreSQL (several nodes) through the same queries. Every query is a constant with bound
//! parameters; nothing is built from strings.

use std::borrow::Cow;
use std::time::Duration;

use oaq_net::protocol::{PlayerInfo, RoomEvent, RoomSummary};
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{Acquire, AnyPool, Executor, Row, SqlSafeStr};
use tokio::sync::{mpsc, oneshot};

use crate::ratings::Rating;

mod bots;
mod challenges;
mod correspondence;
mod friends;
mod identity;
mod moderation;
mod notify;
mod people;
mod profiles;
mod safety;
mod tournaments;
mod training;
pub use bots::NotABot;
pub use correspondence::VacationRow;
pub use friends::Asked;
pub use identity::{Account, Private};
pub use moderation::{Moderation, Report};
pub use safety::{Credentials, Standing};
pub use tournaments::TournamentRow;
pub use training::{Kept, Page, TooMany};

/// The schema, in order. Both databases read the same SQL.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "players rooms and room logs",
        include_str!("migrations/0001_start.sql"),
    ),
    (
        2,
        "a room's winning score",
        include_str!("migrations/0002_win_at.sql"),
    ),
    (
        3,
        "the lobby lists rooms whose players are here",
        include_str!("migrations/0003_listed.sql"),
    ),
    (
        4,
        "devices friends challenges profiles and moderation",
        include_str!("migrations/0004_people.sql"),
    ),
    (
        5,
        "correspondence games, vacations, pools and notifications",
        include_str!("migrations/0005_correspondence.sql"),
    ),
    (
        6,
        "safety: push subscriptions by device, child mode's wait, confirmed e-mail, refusals",
        include_str!("migrations/0006_safety.sql"),
    ),
    (
        7,
        "tournaments",
        include_str!("migrations/0007_tournaments.sql"),
    ),
    (8, "bots", include_str!("migrations/0008_bots.sql")),
    (
        9,
        "practice and puzzle progress shared by a player's devices",
        include_str!("migrations/0009_training.sql"),
    ),
];

/// A storage failure, said plainly (the database's own message is kept for the log).
#[derive(Debug)]
pub enum StoreError {
    /// Another writer took this sequence number first (a node that lost its lease).
    Conflict,
    /// A stored record does not read back (a bad row, or a newer server's format).
    Corrupt(String),
    Database(sqlx::Error),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Conflict => write!(f, "another node wrote this event first"),
            StoreError::Corrupt(e) => write!(f, "stored data does not read back: {e}"),
            StoreError::Database(e) => write!(f, "database: {e}"),
        }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => StoreError::Conflict,
            _ => StoreError::Database(e),
        }
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// A player's stored row.
#[derive(Clone, Debug)]
pub struct PlayerRow {
    pub info: PlayerInfo,
    pub rating: Rating,
}

/// One finished game of a player, for `/players/ID`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RecentGame {
    pub code: String,
    pub preset: String,
    pub status: String,
    pub seat: usize,
    pub updated_ms: i64,
}

/// Where a room stands, as the rooms table keeps it for the lobby and for restarts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomStatus {
    Waiting,
    Playing,
    Finished,
}

/// Where a room's game stands, as the store's `status` column keeps it.
pub fn status(room: &oaq_net::room::RoomState) -> RoomStatus {
    use oaq_net::room::Phase;
    match room.phase {
        Phase::Waiting => RoomStatus::Waiting,
        Phase::Playing => RoomStatus::Playing,
        Phase::Ended(_) => RoomStatus::Finished,
    }
}

impl RoomStatus {
    fn as_str(self) -> &'static str {
        match self {
            RoomStatus::Waiting => "waiting",
            RoomStatus::Playing => "playing",
            RoomStatus::Finished => "finished",
        }
    }
}

/// What the rooms table row should say after an event.
pub struct RoomRow {
    pub status: RoomStatus,
    pub seated: usize,
    pub summary: RoomSummary,
    pub public: bool,
    /// Whether the lobby lists it: public, waiting, and everyone seated still here.
    pub listed: bool,
}

impl RoomRow {
    /// The row of `room` as it stands.
    pub fn of(room: &oaq_net::room::RoomState) -> RoomRow {
        let status = status(room);
        let everyone_here = room
            .seats
            .iter()
            .zip(&room.away)
            .all(|(seat, away)| seat.is_none() || away.is_none());
        RoomRow {
            status,
            seated: room.seated(),
            summary: room.summary(),
            public: room.public,
            listed: room.public
                && status == RoomStatus::Waiting
                && room.seated() > 0
                && everyone_here,
        }
    }
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The log writer's queue (group commit).
    log: mpsc::Sender<LogWrite>,
}

/// One event for the log writer, and where to say it is stored.
struct LogWrite {
    code: String,
    seq: i64,
    body: String,
    at_ms: i64,
    done: oneshot::Sender<StoreResult<()>>,
}

const INSERT_EVENT: &str =
    "INSERT INTO room_events (code, seq, body, at_ms) VALUES ($1, $2, $3, $4)";

/// Events written in one transaction at most.
const GROUP: usize = 128;

/// Group commit: events that arrive while a commit is under way are written together in the
/// next transaction, so a busy server pays one commit for many moves. Each event's sender
/// hears only once its transaction is committed.
async fn log_writer(pool: AnyPool, mut queue: mpsc::Receiver<LogWrite>) {
    let mut batch = Vec::with_capacity(GROUP);
    while queue.recv_many(&mut batch, GROUP).await > 0 {
        let written = write_group(&pool, &batch).await;
        match written {
            Ok(()) => {
                for w in batch.drain(..) {
                    let _ = w.done.send(Ok(()));
                }
            }
            // One of them failed (a conflict): nothing of the group is stored; write each by
            // itself so that only that one fails.
            Err(_) => {
                for w in batch.drain(..) {
                    let result = insert_event(&pool, &w.code, w.seq, &w.body, w.at_ms).await;
                    let _ = w.done.send(result);
                }
            }
        }
    }
}

async fn write_group(pool: &AnyPool, batch: &[LogWrite]) -> StoreResult<()> {
    if let [w] = batch {
        return insert_event(pool, &w.code, w.seq, &w.body, w.at_ms).await;
    }
    let mut conn = pool.acquire().await?;
    let mut tx = conn.begin().await?;
    for w in batch {
        sqlx::query(INSERT_EVENT)
            .bind(w.code.as_str())
            .bind(w.seq)
            .bind(w.body.as_str())
            .bind(w.at_ms)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn insert_event(
    pool: &AnyPool,
    code: &str,
    seq: i64,
    body: &str,
    at_ms: i64,
) -> StoreResult<()> {
    sqlx::query(INSERT_EVENT)
        .bind(code)
        .bind(seq)
        .bind(body)
        .bind(at_ms)
        .execute(pool)
        .await?;
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Store {
    /// Open (creating an SQLite file if need be) and bring the schema up to date.
    pub async fn open(url: &str) -> StoreResult<Store> {
        install_default_drivers();
        let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        };
        let options = AnyPoolOptions::new()
            // SQLite has one writer at a time: one connection queues writes in the pool instead of
            // in SQLite's busy handler, which sleeps.
            .max_connections(if backend == Backend::Sqlite { 1 } else { 16 })
            // A request waits this long at most for a connection (the database down: refused).
            .acquire_timeout(Duration::from_secs(3))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL: readers never wait for the writer; NORMAL: a commit is on disk
                        // in the log before it returns, so a killed process loses nothing.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                    }
                    Ok(())
                })
            });
        let pool = options.connect(url).await?;
        let migrations = MIGRATIONS
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    sql.into_sql_str(),
                    false,
                )
            })
            .collect();
        let migrator = Migrator::with_migrations(migrations);
        migrator
            .run(&pool)
            .await
            .map_err(|e| StoreError::Corrupt(format!("migrating the schema: {e}")))?;
        let (log, queue) = mpsc::channel(4 * GROUP);
        tokio::spawn(log_writer(pool.clone(), queue));
        Ok(Store { pool, backend, log })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    // Players.

    pub async fn player(&self, id: &str) -> StoreResult<Option<PlayerRow>> {
        let row = sqlx::query(
            "SELECT id, name, rating, deviation, volatility, games, bot FROM players WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(player_row).transpose()
    }

    pub async fn rename_player(&self, id: &str, name: &str) -> StoreResult<()> {
        sqlx::query("UPDATE players SET name = $1 WHERE id = $2")
            .bind(name)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The top players by rating, with at least one rated game: people, or (`bots`) bots.
    pub async fn leaderboard(&self, limit: i64, bots: bool) -> StoreResult<Vec<PlayerInfo>> {
        let rows = sqlx::query(
            "SELECT id, name, rating, deviation, volatility, games, bot FROM players \
             WHERE games > 0 AND child = 0 AND banned = 0 AND bot = $2 \
             ORDER BY rating DESC, games DESC, id LIMIT $1",
        )
        .bind(limit)
        .bind(i64::from(bots))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| player_row(r).map(|p| p.info))
            .collect()
    }

    /// How many rated players are above `rating` on the leaderboard of people, or (`bots`) of
    /// bots: a place, from 0.
    pub async fn rank(&self, rating: f64, bots: bool) -> StoreResult<i64> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM players WHERE games > 0 AND child = 0 AND banned = 0 \
             AND bot = $2 AND rating > $1",
        )
        .bind(rating)
        .bind(i64::from(bots))
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>(0)?)
    }

    /// `player`'s last finished public games, for anyone to see: never a room still waiting or
    /// being played (its code lets anyone in or watching), never a private room (its code is
    /// its players' to share), and none of a player in child mode.
    pub async fn recent_games(&self, player: &str, limit: i64) -> StoreResult<Vec<RecentGame>> {
        let rows = sqlx::query(
            "SELECT r.code, r.preset, r.status, s.seat, r.updated_ms FROM room_seats s \
             JOIN rooms r ON r.code = s.code JOIN players p ON p.id = s.player \
             WHERE s.player = $1 AND r.status = 'finished' AND r.public = 1 AND p.child = 0 \
             ORDER BY r.updated_ms DESC LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok(RecentGame {
                    code: r.try_get(0)?,
                    preset: r.try_get(1)?,
                    status: r.try_get(2)?,
                    seat: r.try_get::<i64, _>(3)? as usize,
                    updated_ms: r.try_get(4)?,
                })
            })
            .collect()
    }

    // Rooms.

    /// Write event `seq` of room `code`, with what it changes in the rooms table and in the
    /// players' ratings, in one transaction: all of it is stored, or none.
    pub async fn append(
        &self,
        code: &str,
        seq: u64,
        event: &RoomEvent,
        row: &RoomRow,
        ratings: &[(String, Rating)],
        at_ms: i64,
    ) -> StoreResult<()> {
        let body = serde_json::to_string(event)
            .unwrap_or_else(|e| unreachable!("room events always serialise: {e}"));
        // Most events (moves above all) change nothing but the log: one statement, committed
        // by itself. The rest change the room's row, its seats or ratings too: one transaction.
        let row_changes = seq == 0
            || !ratings.is_empty()
            || matches!(
                event,
                RoomEvent::Seated { .. }
                    | RoomEvent::Unseated { .. }
                    | RoomEvent::Started { .. }
                    | RoomEvent::Ended { .. }
                    | RoomEvent::Away { .. }
                    | RoomEvent::Back { .. }
            );
        if !row_changes {
            let (done, stored) = oneshot::channel();
            let write = LogWrite {
                code: code.to_owned(),
                seq: seq as i64,
                body,
                at_ms,
                done,
            };
            let closed = || StoreError::Corrupt("the log writer has stopped".into());
            self.log.send(write).await.map_err(|_| closed())?;
            return stored.await.map_err(|_| closed())?;
        }
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        sqlx::query(INSERT_EVENT)
            .bind(code)
            .bind(seq as i64)
            .bind(body)
            .bind(at_ms)
            .execute(&mut *tx)
            .await?;
        write_room_row(&mut tx, code, seq, row, at_ms).await?;
        write_seat(&mut tx, code, event).await?;
        write_ratings(&mut tx, code, event, ratings, at_ms).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Room `code`'s events after `after` (all of them for `None`), in order.
    pub async fn events(&self, code: &str, after: Option<u64>) -> StoreResult<Vec<RoomEvent>> {
        let from = after.map_or(0, |s| s as i64 + 1);
        let rows = sqlx::query(
            "SELECT seq, body FROM room_events WHERE code = $1 AND seq >= $2 ORDER BY seq",
        )
        .bind(code)
        .bind(from)
        .fetch_all(&self.pool)
        .await?;
        let mut events = Vec::with_capacity(rows.len());
        for (i, row) in rows.into_iter().enumerate() {
            let seq: i64 = row.try_get(0)?;
            if seq != from + i as i64 {
                return Err(StoreError::Corrupt(format!(
                    "room {code}: event {seq} where {} was expected",
                    from + i as i64
                )));
            }
            let body: String = row.try_get(1)?;
            events.push(
                serde_json::from_str(&body)
                    .map_err(|e| StoreError::Corrupt(format!("room {code} event {seq}: {e}")))?,
            );
        }
        Ok(events)
    }

    /// Public rooms waiting for players, newest first, as `asker` may see them: none where a
    /// seated player and the asker block one another.
    pub async fn lobby(&self, asker: &str, limit: i64) -> StoreResult<Vec<RoomSummary>> {
        let rows = sqlx::query(
            "SELECT code, preset, players, clock, creator, seated, win_at FROM rooms \
             WHERE listed = 1 AND NOT EXISTS (SELECT 1 FROM room_seats s JOIN blocks b \
             ON (b.player = s.player AND b.other = $2) OR (b.player = $2 AND b.other = s.player) \
             WHERE s.code = rooms.code) ORDER BY updated_ms DESC LIMIT $1",
        )
        .bind(limit)
        .bind(asker)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                let clock: String = r.try_get(3)?;
                let creator: String = r.try_get(4)?;
                let corrupt = |e: serde_json::Error| StoreError::Corrupt(format!("lobby row: {e}"));
                Ok(RoomSummary {
                    code: r.try_get(0)?,
                    preset: r.try_get(1)?,
                    players: r.try_get::<i64, _>(2)? as u8,
                    clock: serde_json::from_str(&clock).map_err(corrupt)?,
                    creator: serde_json::from_str(&creator).map_err(corrupt)?,
                    seated: r.try_get::<i64, _>(5)? as u8,
                    win_at: r.try_get::<Option<i64>, _>(6)?.map(|n| n as u16),
                })
            })
            .collect()
    }

    /// How many rooms waiting for players `player` sits in.
    pub async fn waiting_rooms_of(&self, player: &str) -> StoreResult<u64> {
        let n: i64 = sqlx::query(
            "SELECT COUNT(*) FROM room_seats s JOIN rooms r ON r.code = s.code \
             WHERE s.player = $1 AND r.status = 'waiting'",
        )
        .bind(player)
        .fetch_one(&self.pool)
        .await?
        .try_get(0)?;
        Ok(n.max(0) as u64)
    }

    /// The rooms in `status` (`waiting`, `playing`) in which `player` holds a seat, the
    /// longest unchanged first, at most 200.
    pub async fn rooms_of(&self, player: &str, status: &str) -> StoreResult<Vec<String>> {
        let rows = sqlx::query(
            "SELECT r.code FROM room_seats s JOIN rooms r ON r.code = s.code \
             WHERE s.player = $1 AND r.status = $2 ORDER BY r.updated_ms LIMIT 200",
        )
        .bind(player)
        .bind(status)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| Ok(r.try_get::<String, _>(0)?))
            .collect()
    }

    /// Whether `player` holds a seat in room `code`.
    pub async fn holds_seat(&self, code: &str, player: &str) -> StoreResult<bool> {
        let row = sqlx::query("SELECT seat FROM room_seats WHERE code = $1 AND player = $2")
            .bind(code)
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Codes of the rooms whose game is in progress (to bring back after a restart).
    pub async fn playing_rooms(&self) -> StoreResult<Vec<String>> {
        let rows = sqlx::query("SELECT code FROM rooms WHERE status = 'playing' ORDER BY code")
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter()
            .map(|r| Ok(r.try_get::<String, _>(0)?))
            .collect()
    }
}

pub(super) fn player_row(row: sqlx::any::AnyRow) -> StoreResult<PlayerRow> {
    let rating = Rating {
        rating: row.try_get(2)?,
        deviation: row.try_get(3)?,
        volatility: row.try_get(4)?,
    };
    Ok(PlayerRow {
        info: PlayerInfo {
            id: row.try_get(0)?,
            name: row.try_get(1)?,
            rating: crate::ratings::shown(rating.rating),
            deviation: crate::ratings::shown(rating.deviation),
            games: row.try_get::<i64, _>(5)? as u64,
            // Read by name: some queries add columns of their own after the player's.
            bot: row.try_get::<i64, _>("bot")? != 0,
        },
        rating,
    })
}

/// The room's row as event `seq` leaves it: made with the first event, updated after.
async fn write_room_row(
    tx: &mut sqlx::AnyConnection,
    code: &str,
    seq: u64,
    row: &RoomRow,
    at_ms: i64,
) -> StoreResult<()> {
    let clock = serde_json::to_string(&row.summary.clock)
        .unwrap_or_else(|e| unreachable!("clocks always serialise: {e}"));
    let creator = serde_json::to_string(&row.summary.creator)
        .unwrap_or_else(|e| unreachable!("players always serialise: {e}"));
    if seq == 0 {
        sqlx::query(
            "INSERT INTO rooms (code, status, public, preset, players, clock, creator, \
             seated, last_seq, updated_ms, win_at, listed, days) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(code)
        .bind(row.status.as_str())
        .bind(i64::from(row.public))
        .bind(row.summary.preset.as_str())
        .bind(i64::from(row.summary.players))
        .bind(clock)
        .bind(creator)
        .bind(row.seated as i64)
        .bind(seq as i64)
        .bind(at_ms)
        .bind(row.summary.win_at.map(i64::from))
        .bind(i64::from(row.listed))
        .bind(row.summary.clock.days().map_or(0, i64::from))
        .execute(&mut *tx)
        .await?;
    } else {
        sqlx::query(
            "UPDATE rooms SET status = $1, seated = $2, last_seq = $3, updated_ms = $4, \
             creator = $5, listed = $6 WHERE code = $7",
        )
        .bind(row.status.as_str())
        .bind(row.seated as i64)
        .bind(seq as i64)
        .bind(at_ms)
        .bind(creator)
        .bind(i64::from(row.listed))
        .bind(code)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// A seat taken or given up, as its event says.
async fn write_seat(
    tx: &mut sqlx::AnyConnection,
    code: &str,
    event: &RoomEvent,
) -> StoreResult<()> {
    match event {
        RoomEvent::Seated { seat, player } => {
            sqlx::query("INSERT INTO room_seats (code, seat, player) VALUES ($1, $2, $3)")
                .bind(code)
                .bind(*seat as i64)
                .bind(player.id.as_str())
                .execute(&mut *tx)
                .await?;
        }
        RoomEvent::Unseated { seat } => {
            sqlx::query("DELETE FROM room_seats WHERE code = $1 AND seat = $2")
                .bind(code)
                .bind(*seat as i64)
                .execute(&mut *tx)
                .await?;
        }
        _ => {}
    }
    Ok(())
}

/// The players' new ratings, and each one's rated game for their profile when the game ended.
async fn write_ratings(
    tx: &mut sqlx::AnyConnection,
    code: &str,
    event: &RoomEvent,
    ratings: &[(String, Rating)],
    at_ms: i64,
) -> StoreResult<()> {
    for (player, rating) in ratings {
        sqlx::query(
            "UPDATE players SET rating = $1, deviation = $2, volatility = $3, \
             games = games + 1 WHERE id = $4",
        )
        .bind(rating.rating)
        .bind(rating.deviation)
        .bind(rating.volatility)
        .bind(player.as_str())
        .execute(&mut *tx)
        .await?;
    }
    // Each player's rating after a rated game, and how it went: their profile.
    if let RoomEvent::Ended {
        result, abandoned, ..
    } = event
    {
        let outcomes = oaq_net::social::Outcome::of_places(&result.places);
        for (seat, ((player, rating), outcome)) in ratings.iter().zip(outcomes).enumerate() {
            let left = *abandoned && result.by == Some(seat);
            sqlx::query(
                "INSERT INTO rated_games (player, code, at_ms, rating, deviation, outcome, \
                 abandoned) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(player.as_str())
            .bind(code)
            .bind(at_ms)
            .bind(rating.rating)
            .bind(rating.deviation)
            .bind(outcome.as_str())
            .bind(i64::from(left))
            .execute(&mut *tx)
            .await?;
        }
    }
    Ok(())
}

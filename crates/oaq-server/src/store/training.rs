//! The store's training records: each player's practice and puzzle progress, one row per
//! record, shared by their devices. A write locks the player's head row first, so that the
//! count checked against the cap is the count written, on one node or several.

use sqlx::{Acquire, Row};

use crate::store::{Store, StoreResult};

/// A write's outcome: how many of the records ranked above the kept ones, and the number the
/// player's records are written up to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kept {
    pub kept: u32,
    pub upto: u64,
}

/// A write refused whole: it would take the player past the cap (they keep `records`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TooMany {
    pub records: u64,
}

/// Records written after a number, oldest first, as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    pub bodies: Vec<String>,
    pub upto: u64,
    pub more: bool,
}

/// A record to keep: its key, its rank and its JSON.
pub type Record<'a> = (&'a str, i64, &'a str);

impl Store {
    /// Keep `records` of `player` where each ranks above the version kept, all of them or,
    /// past `cap` records, none.
    pub async fn keep_training(
        &self,
        player: &str,
        records: &[Record<'_>],
        cap: u64,
    ) -> StoreResult<Result<Kept, TooMany>> {
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        sqlx::query(
            "INSERT INTO training_heads (player, seq, records) VALUES ($1, 0, 0) \
             ON CONFLICT (player) DO NOTHING",
        )
        .bind(player)
        .execute(&mut *tx)
        .await?;
        // Taking the head row's lock before anything is read: the player's writes queue here.
        let head = sqlx::query(
            "UPDATE training_heads SET seq = seq WHERE player = $1 RETURNING seq, records",
        )
        .bind(player)
        .fetch_one(&mut *tx)
        .await?;
        let (mut seq, mut count) = (head.try_get::<i64, _>(0)?, head.try_get::<i64, _>(1)?);
        let mut kept = 0;
        for &(key, rank, body) in records {
            let old = sqlx::query("SELECT rank FROM training WHERE player = $1 AND key = $2")
                .bind(player)
                .bind(key)
                .fetch_optional(&mut *tx)
                .await?
                .map(|row| row.try_get::<i64, _>(0))
                .transpose()?;
            let sql = match old {
                None if count as u64 >= cap => {
                    return Ok(Err(TooMany {
                        records: count as u64,
                    }));
                }
                None => {
                    count += 1;
                    "INSERT INTO training (player, key, rank, seq, body) \
                     VALUES ($1, $2, $3, $4, $5)"
                }
                Some(old) if old < rank => {
                    "UPDATE training SET rank = $3, seq = $4, body = $5 \
                     WHERE player = $1 AND key = $2"
                }
                Some(_) => continue,
            };
            seq += 1;
            kept += 1;
            sqlx::query(sql)
                .bind(player)
                .bind(key)
                .bind(rank)
                .bind(seq)
                .bind(body)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("UPDATE training_heads SET seq = $2, records = $3 WHERE player = $1")
            .bind(player)
            .bind(seq)
            .bind(count)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Ok(Kept {
            kept,
            upto: seq as u64,
        }))
    }

    /// `player`'s records written after `since`, oldest first: at most `rows` of them and
    /// about `bytes` of JSON. A `since` past what was ever written (a server that started
    /// again empty) gets everything.
    pub async fn training_since(
        &self,
        player: &str,
        since: u64,
        rows: usize,
        bytes: usize,
    ) -> StoreResult<Page> {
        let head = sqlx::query("SELECT seq FROM training_heads WHERE player = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?
            .map(|row| row.try_get::<i64, _>(0))
            .transpose()?
            .unwrap_or(0) as u64;
        let since = if since > head { 0 } else { since };
        let found = sqlx::query(
            "SELECT seq, body FROM training WHERE player = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        )
        .bind(player)
        .bind(since as i64)
        .bind(rows as i64 + 1)
        .fetch_all(&self.pool)
        .await?;
        let mut page = Page {
            bodies: Vec::new(),
            upto: since,
            more: false,
        };
        let mut size = 0;
        for row in found {
            let body: String = row.try_get(1)?;
            if page.bodies.len() == rows || (size + body.len() > bytes && !page.bodies.is_empty()) {
                page.more = true;
                break;
            }
            size += body.len();
            page.upto = row.try_get::<i64, _>(0)? as u64;
            page.bodies.push(body);
        }
        Ok(page)
    }
}

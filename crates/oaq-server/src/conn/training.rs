//! A connection's training records: the player's practice and puzzle progress, kept for their
//! other devices and read back a page at a time. Only the player writes and reads their own
//! ([`crate::policy::may_keep_own`]); each read or write is counted per player and per address
//! before it is made, and a write past the cap of records is refused whole.

use oaq_net::protocol::{ErrorCode, Notice, ServerMessage};
use oaq_session::TrainingRecord;
use oaq_session::training::MAX_RECORDS;

use super::Conn;
use super::account::{Refused, refused};
use crate::mailbox::ConnRef;
use crate::store::TooMany;

/// A page of records read back: at most this many, and about this much JSON (a server frame
/// holds 64 KiB; one record holds at most 4).
const PAGE_ROWS: usize = 200;
const PAGE_BYTES: usize = 48 * 1024;

impl Conn {
    /// One more read or write of training records, counted against the player and the
    /// address before it is made (a refused one is given back to the other).
    async fn training_allowed(&self, me: &ConnRef) -> Result<(), Refused> {
        crate::policy::may_keep_own(&self.server, &me.player.id).await?;
        let per_minute = self.server.settings.training_per_minute;
        if !self.server.training.take_key(me.player.id.clone()) {
            return Err(refused(
                ErrorCode::RateLimited,
                format!(
                    "more than {per_minute} reads and writes of practice and puzzles a minute: \
                     wait a minute"
                ),
            ));
        }
        if !self.server.training_addresses.take(self.addr.ip()) {
            self.server.training.give_back_key(me.player.id.clone());
            return Err(refused(
                ErrorCode::RateLimited,
                "too many reads and writes of practice and puzzles from your address: wait a \
                 minute",
            ));
        }
        Ok(())
    }

    /// Keep `records` (checked where they were read) where each ranks above the server's; the
    /// player's every connection hears that they changed.
    pub(super) async fn keep_training(
        &mut self,
        me: &ConnRef,
        records: Vec<TrainingRecord>,
    ) -> Result<(), Refused> {
        self.training_allowed(me).await?;
        let mut rows = Vec::with_capacity(records.len());
        for record in &records {
            let body = serde_json::to_string(record)
                .map_err(|e| refused(ErrorCode::BadMessage, format!("records: {e}")))?;
            rows.push((record.key(), record.rank(), body));
        }
        let rows: Vec<_> = rows
            .iter()
            .map(|(key, rank, body)| (key.as_str(), *rank, body.as_str()))
            .collect();
        let cap = MAX_RECORDS as u64;
        let store = &self.server.store;
        match store.keep_training(&me.player.id, &rows, cap).await? {
            Ok(kept) => {
                self.send(&ServerMessage::Notice(Notice::TrainingKept {
                    kept: kept.kept,
                    upto: kept.upto,
                }));
                if kept.kept > 0 {
                    let changed = Notice::TrainingChanged { upto: kept.upto };
                    self.server
                        .tell(&me.player.id, &ServerMessage::Notice(changed))
                        .await;
                }
                Ok(())
            }
            Err(TooMany { records }) => Err(refused(
                ErrorCode::NotAllowed,
                format!(
                    "{records} records of practice and puzzles are kept, at most {cap}: none of \
                     these was kept"
                ),
            )),
        }
    }

    /// The player's records written after `since`, a page of them.
    pub(super) async fn training(&mut self, me: &ConnRef, since: u64) -> Result<(), Refused> {
        self.training_allowed(me).await?;
        let page = self
            .server
            .store
            .training_since(&me.player.id, since, PAGE_ROWS, PAGE_BYTES)
            .await?;
        let mut records = Vec::with_capacity(page.bodies.len());
        for body in &page.bodies {
            match serde_json::from_str::<TrainingRecord>(body) {
                Ok(record) => records.push(record),
                // A record a newer server wrote: this one passes over it.
                Err(e) => {
                    tracing::warn!(player = %me.player.id, "a training record does not read: {e}")
                }
            }
        }
        self.send(&ServerMessage::Notice(Notice::Training {
            records,
            upto: page.upto,
            more: page.more,
        }));
        Ok(())
    }
}

//! What the store's people files share: the player columns of their queries (written out in each
//! so that every query stays a constant) and the readers of their rows.

use sqlx::Row;

use crate::store::{StoreResult, player_row};
use oaq_net::protocol::PlayerInfo;

/// The player columns of the queries below (as `player_row` reads them), written out in each
/// so that every query stays a constant.
pub(super) const FRIENDS: &str = "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games, p.bot \
     FROM friends f JOIN players p ON p.id = f.other \
     WHERE f.player = $1 AND f.state = 'friends' ORDER BY p.name, p.id LIMIT 500";
pub(super) const INCOMING: &str = "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games, p.bot \
     FROM friends f JOIN players p ON p.id = f.player \
     WHERE f.other = $1 AND f.state = 'asked' ORDER BY f.since_ms DESC LIMIT 100";
pub(super) const OUTGOING: &str = "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games, p.bot \
     FROM friends f JOIN players p ON p.id = f.other \
     WHERE f.player = $1 AND f.state = 'asked' ORDER BY f.since_ms DESC LIMIT 100";
pub(super) const BLOCKED: &str = "SELECT p.id, p.name, p.rating, p.deviation, p.volatility, p.games, p.bot \
     FROM blocks b JOIN players p ON p.id = b.other \
     WHERE b.player = $1 ORDER BY b.at_ms DESC LIMIT 500";
pub(super) const CHALLENGES_TO: &str = "SELECT c.id, c.preset, c.rules, c.clock, c.expires_ms, \
     c.from_player, c.to_player FROM challenges c WHERE c.to_player = $1 AND c.expires_ms >= $2 \
     ORDER BY c.created_ms DESC LIMIT 100";
pub(super) const CHALLENGES_FROM: &str = "SELECT c.id, c.preset, c.rules, c.clock, c.expires_ms, \
     c.from_player, c.to_player FROM challenges c WHERE c.from_player = $1 \
     AND c.expires_ms >= $2 ORDER BY c.created_ms DESC LIMIT 100";

pub(super) fn infos(rows: Vec<sqlx::any::AnyRow>) -> StoreResult<Vec<PlayerInfo>> {
    rows.into_iter()
        .map(|r| player_row(r).map(|p| p.info))
        .collect()
}

pub(super) fn flag(row: &sqlx::any::AnyRow, i: usize) -> StoreResult<bool> {
    Ok(row.try_get::<i64, _>(i)? != 0)
}

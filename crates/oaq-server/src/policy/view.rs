//! Other players as a viewer may see them. A child (child mode) is nobody to a stranger: to
//! anyone who is not the child or a friend of theirs, a child's line in standings and results
//! is "a player" ([`anonymous`]: no id, no name, no room), and a room a child sits in is not
//! there to watch. Whatever puts a player before a viewer goes through [`Viewer::show`].

use std::collections::HashSet;

use oaq_net::protocol::PlayerInfo;

use crate::settings::now_ms;
use crate::shared::Server;
use crate::store::StoreError;

/// Who is looking: a player, or anyone at all (a page read without signing in).
#[derive(Clone, Debug)]
pub struct Viewer {
    id: Option<String>,
    /// The children among the players shown whom this viewer may not see.
    hidden: HashSet<String>,
}

/// A player as one viewer may see them.
#[derive(Clone, Debug, PartialEq)]
#[must_use]
pub enum Shown {
    /// Who they are.
    Known(PlayerInfo),
    /// "A player": a child, to a stranger.
    Hidden,
}

impl Shown {
    /// The player's card as the viewer gets it ([`anonymous`] for a hidden one).
    pub fn info(self) -> PlayerInfo {
        match self {
            Shown::Known(info) => info,
            Shown::Hidden => anonymous(),
        }
    }

    pub fn is_hidden(&self) -> bool {
        matches!(self, Shown::Hidden)
    }
}

/// A player not to be named: no id, no name, no rating.
pub fn anonymous() -> PlayerInfo {
    PlayerInfo {
        id: String::new(),
        name: String::new(),
        rating: 0.0,
        deviation: 0.0,
        games: 0,
        bot: false,
    }
}

/// Which of `players` are children, read once for many viewers.
pub async fn children_among<S: AsRef<str>>(
    server: &Server,
    players: &[S],
) -> Result<HashSet<String>, StoreError> {
    let now = now_ms();
    let mut children = HashSet::new();
    for id in players.iter().map(AsRef::as_ref) {
        if !children.contains(id) && server.store.is_child(id, now).await? {
            children.insert(id.to_owned());
        }
    }
    Ok(children)
}

impl Viewer {
    /// `viewer` (`None`: anyone) looking at players of whom `children` are in child mode.
    pub async fn of(
        server: &Server,
        viewer: Option<&str>,
        children: &HashSet<String>,
    ) -> Result<Viewer, StoreError> {
        let mut hidden = HashSet::new();
        for child in children {
            let seen = match viewer {
                Some(me) => me == child || server.store.are_friends(me, child).await?,
                None => false,
            };
            if !seen {
                hidden.insert(child.clone());
            }
        }
        Ok(Viewer {
            id: viewer.map(str::to_owned),
            hidden,
        })
    }

    /// The viewer's own id, if a player.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// `player` as this viewer may see them.
    pub fn show(&self, player: &PlayerInfo) -> Shown {
        if self.hidden.contains(&player.id) {
            Shown::Hidden
        } else {
            Shown::Known(player.clone())
        }
    }

    /// Whether this viewer may see `player` at all.
    pub fn sees(&self, player: &str) -> bool {
        !self.hidden.contains(player)
    }
}

/// Whether `viewer` may see `player` at all: a child is nobody to a stranger, so whatever
/// names a player (a profile, a report, a challenge) finds none.
pub async fn may_see(server: &Server, viewer: &str, player: &str) -> Result<bool, StoreError> {
    let children = children_among(server, &[player]).await?;
    Ok(Viewer::of(server, Some(viewer), &children)
        .await?
        .sees(player))
}

/// Whether `viewer` may watch a room where `seated` sit: not when a child sits there and the
/// viewer is neither seated nor the child's friend.
pub async fn may_watch(
    server: &Server,
    viewer: &str,
    seated: &[PlayerInfo],
) -> Result<bool, StoreError> {
    if seated.iter().any(|p| p.id == viewer) {
        return Ok(true);
    }
    let ids: Vec<&str> = seated.iter().map(|p| p.id.as_str()).collect();
    let children = children_among(server, &ids).await?;
    let viewer = Viewer::of(server, Some(viewer), &children).await?;
    Ok(seated.iter().all(|p| viewer.sees(&p.id)))
}

//! Tournaments on the server: made by an organiser, joined and left by players, and run by
//! one node at a time (a Redis claim per tournament, as the pools' waves are; alone, this
//! node). Each tournament is a row whose state (`oaq_tournament::Tournament` and the rooms of
//! its games) is written back at the version read, so two writers never both win. Every
//! tournament game is a normal room: the running node opens it with both players seated (the
//! first mover in seat 0), tells both `paired`, and reads its result from the store when it
//! ends. A node lost between choosing a pairing and opening its room leaves the pairing
//! waiting for a room; the next runner opens it.

mod results;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use oaq_net::protocol::{
    ClockSpec, ErrorCode, First, GameResult, Notice, PlayerInfo, RulesChoice, ServerMessage,
};
use oaq_net::tournament::{
    Format, INVITED_AT_MOST, ORGANISED_AT_ONCE, STANDINGS_SHOWN, StandingLine, TournamentLine,
    TournamentStatus, TournamentView,
};
use oaq_tournament::{Outcome, Pairing, Phase, Tournament};
use serde::{Deserialize, Serialize};

use crate::policy::{self, Meeting, Viewer};
use crate::room::registry;
use crate::settings::now_ms;
use crate::shared::Server;
use crate::store::{StoreError, TournamentRow};

pub use results::csv as results_csv;

/// A tournament id: 8 characters of the friend codes' alphabet.
pub const ID_LEN: usize = oaq_net::tournament::TOURNAMENT_ID_LEN;
/// Tournaments a list shows at most, of each kind.
const LISTED: i64 = 30;
/// Tries at writing a change back before giving up (others kept writing first).
const TRIES: usize = 8;

/// A tournament as it runs: the pure tournament, and the room of each game being played
/// (empty while the room is still to be opened).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Run {
    pub tournament: Option<Tournament>,
    pub rooms: Vec<(Pairing, String)>,
    /// The password to join with, as argon2id (none: no password).
    #[serde(default)]
    pub password: Option<String>,
    /// Players the organiser invited: they join without the password.
    #[serde(default)]
    pub invited: Vec<String>,
    /// Its games change no rating.
    #[serde(default)]
    pub unrated: bool,
    /// Its games have no chat.
    #[serde(default)]
    pub no_chat: bool,
    /// Bots may join it.
    #[serde(default)]
    pub bots: bool,
}

impl Run {
    /// The state of `row`.
    pub fn of_row(row: &TournamentRow) -> Result<(Run, Tournament), Refused> {
        Run::of(row)
    }

    fn of(row: &TournamentRow) -> Result<(Run, Tournament), Refused> {
        let run: Run = serde_json::from_str(&row.state)
            .map_err(|e| Refused::Store(StoreError::Corrupt(format!("tournament state: {e}"))))?;
        let tournament = run
            .tournament
            .clone()
            .ok_or_else(|| Refused::Store(StoreError::Corrupt("tournament state: none".into())))?;
        Ok((run, tournament))
    }

    fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| unreachable!("states serialise: {e}"))
    }
}

/// Why a tournament message was refused; nothing changed.
#[derive(Debug)]
pub enum Refused {
    To(ErrorCode, String),
    Store(StoreError),
    /// A password that is not the tournament's (a guess: it counts against the address).
    WrongPassword,
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Self {
        Refused::Store(e)
    }
}

impl From<policy::OpenRefused> for Refused {
    fn from(e: policy::OpenRefused) -> Self {
        match crate::refused::Refused::from(e) {
            crate::refused::Refused::To(code, why) => Refused::To(code, why),
            crate::refused::Refused::Store(e) => Refused::Store(e),
        }
    }
}

impl From<oaq_tournament::Refused> for Refused {
    fn from(e: oaq_tournament::Refused) -> Self {
        Refused::To(ErrorCode::NotAllowed, e.to_string())
    }
}

fn no_tournament() -> Refused {
    Refused::To(
        ErrorCode::NoSuchTournament,
        "that tournament is not there, or not for you to see".into(),
    )
}

/// What an organiser asks for.
pub struct NewTournament {
    pub name: String,
    pub rules: RulesChoice,
    pub clock: ClockSpec,
    pub format: Format,
    pub public: bool,
    pub starts_ms: Option<i64>,
    pub start_when: Option<u32>,
    pub password: Option<String>,
    /// Its games change no rating.
    pub unrated: bool,
    /// Its games have no chat.
    pub no_chat: bool,
    /// Bots may join it.
    pub bots: bool,
}

/// A new tournament by `organiser` (who takes part in it), open until its start: its id.
pub async fn create(
    server: &Arc<Server>,
    organiser: &PlayerInfo,
    child: bool,
    new: NewTournament,
) -> Result<String, Refused> {
    let bad = |why: String| Refused::To(ErrorCode::BadMessage, why);
    let (preset, rules) = new.rules.resolve().map_err(bad)?;
    if rules.players != 2 {
        return Err(bad("tournaments are for rule sets of two players".into()));
    }
    new.clock.validate().map_err(bad)?;
    let now = now_ms();
    let starts_ms = match new.starts_ms {
        Some(at) if at < now => return Err(bad("the start is in the past".into())),
        Some(at) => at,
        None => 0,
    };
    if child && new.public {
        let why = "child mode: tournaments are private; share the code with friends";
        return Err(Refused::To(ErrorCode::NotAllowed, why.into()));
    }
    // The organiser takes part: as the policy lets them meet its players (a bot only where
    // bots are let in).
    let meeting = Meeting::Tournament { bots: new.bots };
    policy::may_meet(server, meeting, organiser).await?;
    let name = crate::identity::clean_tournament_name(&new.name).map_err(bad)?;
    // Numbers out of range are the message's fault: named, as a bad message.
    let mut tournament = Tournament::new(new.format).map_err(|e| bad(format!("format: {e}")))?;
    tournament
        .start_when(new.start_when.map(|n| n as usize))
        .map_err(|e| bad(format!("start_when: {e}")))?;
    tournament.join(&organiser.id, organiser.rating)?;
    let password = match new.password.map(|p| p.trim().to_owned()) {
        Some(p) if !p.is_empty() => Some(hashed(server, p).await?),
        _ => None,
    };
    let _held = server.player_locks.lock(&[organiser.id.as_str()]).await;
    if server.store.organising(&organiser.id).await? >= ORGANISED_AT_ONCE {
        let why = format!("you organise {ORGANISED_AT_ONCE} tournaments already: let one end");
        return Err(Refused::To(ErrorCode::NotAllowed, why));
    }
    let run = Run {
        tournament: Some(tournament),
        rooms: Vec::new(),
        password,
        invited: Vec::new(),
        unrated: new.unrated,
        no_chat: new.no_chat,
        bots: new.bots,
    };
    for _ in 0..TRIES {
        let row = TournamentRow {
            id: crate::identity::new_code(ID_LEN),
            name: name.clone(),
            organiser: organiser.id.clone(),
            preset: preset.clone(),
            rules,
            clock: new.clock,
            public: new.public,
            status: TournamentStatus::Open,
            starts_ms,
            created_ms: now,
            state: run.json(),
            version: 0,
        };
        match server.store.add_tournament(&row, true).await {
            Ok(()) => return Ok(row.id),
            Err(StoreError::Conflict) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(Refused::To(
        ErrorCode::Unavailable,
        "no free tournament id: try again".into(),
    ))
}

/// What a change does to who takes part.
pub enum Entry {
    Joined(String),
    Left(String),
    Unchanged,
}

/// Apply `change` to tournament `id` and write it back at the version read, trying again
/// when another writer came first. Returns the row and state written.
pub async fn change(
    server: &Arc<Server>,
    id: &str,
    change: impl Fn(&TournamentRow, &mut Run, &mut Tournament) -> Result<Entry, Refused>,
) -> Result<(TournamentRow, Run), Refused> {
    for _ in 0..TRIES {
        let mut row = server
            .store
            .tournament(id)
            .await?
            .ok_or_else(no_tournament)?;
        let (mut run, mut tournament) = Run::of(&row)?;
        let entry = change(&row, &mut run, &mut tournament)?;
        let status = status_of(&tournament);
        run.tournament = Some(tournament);
        let state = run.json();
        let entry = match &entry {
            Entry::Joined(p) => Some((p.as_str(), true)),
            Entry::Left(p) => Some((p.as_str(), false)),
            Entry::Unchanged => None,
        };
        if entry.is_none() && state == row.state {
            // Nothing changed: nothing to write.
            return Ok((row, run));
        }
        let store = &server.store;
        if store
            .save_tournament(id, row.version, status, &state, entry)
            .await?
        {
            row.version += 1;
            row.status = status;
            row.state = state;
            return Ok((row, run));
        }
    }
    Err(Refused::To(
        ErrorCode::Unavailable,
        "the tournament is busy: try again".into(),
    ))
}

fn status_of(t: &Tournament) -> TournamentStatus {
    match t.phase {
        Phase::Open => TournamentStatus::Open,
        Phase::Running { .. } => TournamentStatus::Running,
        Phase::Over => TournamentStatus::Over,
    }
}

/// `password` as argon2id, in the hashing queue.
async fn hashed(server: &Arc<Server>, password: String) -> Result<String, Refused> {
    let busy = || {
        Refused::To(
            ErrorCode::RateLimited,
            "many passwords at once: try again".into(),
        )
    };
    server
        .hashing
        .run(move || crate::identity::hash_password(&password))
        .await
        .map_err(|_| busy())?
        .map_err(|e| Refused::To(ErrorCode::Unavailable, e))
}

/// A request that names a tournament by its id, from `addr`: a guess, counted before the
/// look-up ([`policy::Guess`]) and given back unless the id found nothing or a password was
/// wrong. Every way in (the WebSocket, the bot API) asks through here.
pub async fn guessed<T>(
    server: &Server,
    addr: std::net::IpAddr,
    request: impl std::future::Future<Output = Result<T, Refused>>,
) -> Result<T, Refused> {
    let guess = policy::Guess::take(&server.misses, addr).map_err(|_| {
        let why = "too many tournament ids that do not exist or wrong passwords: wait a minute";
        Refused::To(ErrorCode::RateLimited, why.into())
    })?;
    let result = request.await;
    let wrong = matches!(
        result,
        Err(Refused::To(ErrorCode::NoSuchTournament, _) | Refused::WrongPassword)
    );
    guess.settle(wrong);
    result
}

/// Tournament `id` as `player` may see it: none for a child when a stranger organises it, nor
/// across a block with its organiser.
pub async fn visible(
    server: &Arc<Server>,
    id: &str,
    player: &PlayerInfo,
    child: bool,
) -> Result<(TournamentRow, Run), Refused> {
    let row = server
        .store
        .tournament(id)
        .await?
        .ok_or_else(no_tournament)?;
    let store = &server.store;
    let stranger =
        row.organiser != player.id && !store.are_friends(&row.organiser, &player.id).await?;
    if (child && stranger) || store.blocked_between(&row.organiser, &player.id).await? {
        return Err(no_tournament());
    }
    let (run, _) = Run::of_row(&row)?;
    Ok((row, run))
}

/// Whether `player` may join `run` with `password`: no password asked, the organiser, a
/// player invited or in it already, or the right password (checked in the hashing queue).
async fn may_join(
    server: &Arc<Server>,
    row: &TournamentRow,
    player: &str,
    password: Option<String>,
) -> Result<(), Refused> {
    let (run, t) = Run::of(row)?;
    if !run.bots && t.number(player).is_none() {
        let bot = server
            .store
            .player(player)
            .await?
            .is_some_and(|p| p.info.bot);
        if bot {
            let why = "this tournament is for people: its organiser did not let bots in";
            return Err(Refused::To(ErrorCode::NotAllowed, why.into()));
        }
    }
    let Some(phc) = run.password else {
        return Ok(());
    };
    if row.organiser == player
        || run.invited.iter().any(|p| p == player)
        || t.number(player).is_some()
    {
        return Ok(());
    }
    let Some(given) = password else {
        let why = "this tournament asks for its password (or an invitation)";
        return Err(Refused::To(ErrorCode::NotAllowed, why.into()));
    };
    let busy = || {
        Refused::To(
            ErrorCode::RateLimited,
            "many passwords at once: try again".into(),
        )
    };
    let right = server
        .hashing
        .run(move || crate::identity::verify_password(&given, &phc))
        .await
        .map_err(|_| busy())?;
    if right {
        Ok(())
    } else {
        Err(Refused::WrongPassword)
    }
}

/// `player` joins tournament `id` (a child only a friend's, or their own), with its
/// `password` unless invited.
pub async fn join(
    server: &Arc<Server>,
    id: &str,
    player: &PlayerInfo,
    child: bool,
    password: Option<String>,
) -> Result<(TournamentRow, Run), Refused> {
    let (row, _) = visible(server, id, player, child).await?;
    may_join(server, &row, &player.id, password).await?;
    let (who, rating) = (player.id.clone(), player.rating);
    change(server, id, move |_, _, t| {
        t.join(&who, rating)?;
        Ok(Entry::Joined(who.clone()))
    })
    .await
}

/// `player` leaves tournament `id`.
pub async fn leave(
    server: &Arc<Server>,
    id: &str,
    player: &str,
) -> Result<(TournamentRow, Run), Refused> {
    let who = player.to_owned();
    change(server, id, move |_, _, t| {
        let number = t
            .number(&who)
            .ok_or(oaq_tournament::Refused::NoSuchPlayer)?;
        t.withdraw(number)?;
        Ok(Entry::Left(who.clone()))
    })
    .await
}

/// `player` became a bot: out of every tournament for people they are in and that is not
/// over (the policy pairs no bot there either: [`policy::apart`]). How many they left.
pub async fn withdraw_bot(server: &Arc<Server>, player: &str) -> Result<usize, Refused> {
    let (mine, _) = server.store.tournaments_listed(player, LISTED).await?;
    let mut left = 0;
    for row in mine {
        let (run, t) = Run::of(&row)?;
        let entered = t
            .number(player)
            .is_some_and(|n| t.entrants[n].presence != oaq_tournament::Presence::Withdrawn);
        if run.bots || t.phase == Phase::Over || !entered {
            continue;
        }
        leave(server, &row.id, player).await?;
        left += 1;
    }
    Ok(left)
}

/// `player` takes a break from arena `id`, or comes back.
pub async fn pause(
    server: &Arc<Server>,
    id: &str,
    player: &str,
    paused: bool,
) -> Result<(TournamentRow, Run), Refused> {
    let who = player.to_owned();
    change(server, id, move |_, _, t| {
        let number = t
            .number(&who)
            .ok_or(oaq_tournament::Refused::NoSuchPlayer)?;
        t.pause(number, paused)?;
        Ok(Entry::Unchanged)
    })
    .await
}

/// The organiser starts tournament `id` now, or, once a Swiss has begun, its next round.
pub async fn start(
    server: &Arc<Server>,
    id: &str,
    player: &str,
) -> Result<(TournamentRow, Run), Refused> {
    let minute_ms = server.settings.tournament_minute.as_millis() as i64;
    let only = "only the organiser starts the tournament";
    as_organiser(server, id, player, only, move |t| {
        match (t.phase, t.format) {
            (Phase::Running { .. }, Format::Swiss { .. }) => t.call_round(now_ms()),
            _ => t.start(now_ms(), minute_ms),
        }
    })
    .await
}

/// `act` on tournament `id` if `player` organises it; else refused with `only`.
async fn as_organiser(
    server: &Arc<Server>,
    id: &str,
    player: &str,
    only: &'static str,
    act: impl Fn(&mut Tournament) -> Result<(), oaq_tournament::Refused>,
) -> Result<(TournamentRow, Run), Refused> {
    change(server, id, move |row, _, t| {
        if row.organiser != player {
            return Err(Refused::To(ErrorCode::NotAllowed, only.into()));
        }
        act(t)?;
        Ok(Entry::Unchanged)
    })
    .await
}

/// The organiser of tournament `id` invites `player`, a friend of theirs: told at once, they
/// join without the password.
pub async fn invite(
    server: &Arc<Server>,
    id: &str,
    organiser: &PlayerInfo,
    player: &str,
) -> Result<(TournamentRow, Run), Refused> {
    let row = server
        .store
        .tournament(id)
        .await?
        .ok_or_else(no_tournament)?;
    if row.organiser != organiser.id {
        let why = "only the organiser invites players";
        return Err(Refused::To(ErrorCode::NotAllowed, why.into()));
    }
    if !server.store.are_friends(&organiser.id, player).await? {
        let why = "you invite your friends: add them first";
        return Err(Refused::To(ErrorCode::NoSuchPlayer, why.into()));
    }
    let who = player.to_owned();
    let (row, run) = change(server, id, move |_, run, t| {
        if t.phase == Phase::Over {
            return Err(oaq_tournament::Refused::Over.into());
        }
        if !run.invited.contains(&who) {
            if run.invited.len() >= INVITED_AT_MOST {
                let why = format!("at most {INVITED_AT_MOST} players are invited");
                return Err(Refused::To(ErrorCode::NotAllowed, why));
            }
            run.invited.push(who.clone());
        }
        Ok(Entry::Unchanged)
    })
    .await?;
    if let Some(t) = &run.tournament {
        let line = line_of(&row, &run, t, Some(organiser.clone()));
        let from = organiser.clone();
        let notice = ServerMessage::Notice(Notice::TournamentInvite { from, line });
        server.tell(player, &notice).await;
    }
    Ok((row, run))
}

/// The organiser of tournament `id` keeps `players` apart (or lets them meet again).
pub async fn keep_apart(
    server: &Arc<Server>,
    id: &str,
    organiser: &str,
    players: [String; 2],
    apart: bool,
) -> Result<(TournamentRow, Run), Refused> {
    let only = "only the organiser keeps players apart";
    as_organiser(server, id, organiser, only, move |t| {
        t.keep_apart(&players[0], &players[1], apart)
    })
    .await
}

/// The tournament as its page shows it to `asker`.
pub async fn view(
    server: &Arc<Server>,
    row: &TournamentRow,
    run: &Run,
    asker: &str,
) -> Result<TournamentView, StoreError> {
    let names = Names::read(server, row, run, Some(asker)).await?;
    let viewer = Viewer::of(server, Some(asker), &names.children).await?;
    Ok(names.view(row, run, &viewer))
}

/// The players a tournament's pages name, read from the store once for all of one change's
/// pages: the best lines', the organiser's, and those asked for; and which of them are
/// children (shown to strangers as "a player", [`policy::Viewer`]).
struct Names {
    players: HashMap<String, PlayerInfo>,
    children: HashSet<String>,
}

impl Names {
    /// Everyone the pages of `run` show: the best [`STANDINGS_SHOWN`], the organiser, and
    /// `asker` (or, for `None`, every player still in it: each sees their own line).
    async fn read(
        server: &Arc<Server>,
        row: &TournamentRow,
        run: &Run,
        asker: Option<&str>,
    ) -> Result<Names, StoreError> {
        let mut wanted: Vec<String> = vec![row.organiser.clone()];
        if let Some(t) = &run.tournament {
            let table = t.standings();
            wanted.extend(
                table
                    .iter()
                    .take(STANDINGS_SHOWN)
                    .map(|s| t.entrants[s.player].id.clone()),
            );
            match asker {
                Some(asker) => wanted.push(asker.to_owned()),
                None => wanted.extend(t.entrants.iter().map(|e| e.id.clone())),
            }
        }
        let mut names = HashMap::new();
        for id in wanted {
            if names.contains_key(&id) {
                continue;
            }
            if let Some(player) = server.store.player(&id).await? {
                names.insert(id, player.info);
            }
        }
        let ids: Vec<&str> = names.keys().map(String::as_str).collect();
        let children = policy::children_among(server, &ids).await?;
        Ok(Names {
            players: names,
            children,
        })
    }

    /// The page as `viewer` sees it: a child they may not see is "a player", without a room.
    fn view(&self, row: &TournamentRow, run: &Run, viewer: &Viewer) -> TournamentView {
        let asker = viewer.id().unwrap_or_default();
        let t = run.tournament.clone().unwrap_or_else(|| {
            Tournament::new(Format::RoundRobin { twice: false })
                .unwrap_or_else(|e| unreachable!("a round robin is always a format: {e}"))
        });
        let scoring = t.format.scoring();
        let mut lines = Vec::new();
        for s in t.standings() {
            let entrant = &t.entrants[s.player];
            if lines.len() >= STANDINGS_SHOWN && entrant.id != asker {
                continue;
            }
            let Some(player) = self.players.get(&entrant.id) else {
                continue;
            };
            // A game's room is shown only where the viewer may see both its players.
            let room = run
                .rooms
                .iter()
                .find(|(g, code)| g.has(s.player) && !code.is_empty())
                .filter(|(g, _)| {
                    [g.first, g.second]
                        .iter()
                        .all(|&n| t.entrants.get(n).is_some_and(|e| viewer.sees(&e.id)))
                })
                .map(|(_, code)| code.clone());
            let shown = viewer.show(player);
            lines.push(StandingLine {
                player: shown.info(),
                place: s.place as u32,
                points: s.points,
                buchholz: s.buchholz,
                sonneborn_berger: s.sonneborn_berger,
                games: s.games as u32,
                presence: entrant.presence,
                on_fire: entrant.sheet.on_fire(scoring),
                room,
            });
        }
        let rounds = t.format.rounds(t.entrants.len()) as u32;
        let round = match t.phase {
            Phase::Running { round, .. } => round as u32,
            Phase::Open => 0,
            Phase::Over => rounds,
        };
        let joined = t
            .number(asker)
            .is_some_and(|n| t.entrants[n].presence != oaq_tournament::Presence::Withdrawn);
        let organiser = self
            .players
            .get(&row.organiser)
            .map(|p| viewer.show(p).info());
        TournamentView {
            line: line_of(row, run, &t, organiser),
            round,
            rounds,
            next_round_ms: t.next_round_ms.unwrap_or(0),
            standings: lines,
            joined,
        }
    }
}

async fn line(
    server: &Arc<Server>,
    row: &TournamentRow,
    run: &Run,
    t: &Tournament,
) -> Result<TournamentLine, StoreError> {
    let organiser = server.store.player(&row.organiser).await?.map(|p| p.info);
    Ok(line_of(row, run, t, organiser))
}

/// The tournament as a list shows it (an organiser no longer in the store has no name).
fn line_of(
    row: &TournamentRow,
    run: &Run,
    t: &Tournament,
    organiser: Option<PlayerInfo>,
) -> TournamentLine {
    let organiser = organiser.unwrap_or_else(|| PlayerInfo {
        id: row.organiser.clone(),
        name: String::new(),
        rating: 0.0,
        deviation: 0.0,
        games: 0,
        bot: false,
    });
    let ends_ms = match (t.phase, t.format) {
        (Phase::Running { ends_ms, .. }, Format::Arena { .. }) => ends_ms,
        _ => 0,
    };
    TournamentLine {
        id: row.id.clone(),
        name: row.name.clone(),
        organiser,
        format: t.format,
        preset: row.preset.clone(),
        clock: row.clock,
        public: row.public,
        status: row.status,
        players: t.entrants.len() as u32,
        starts_ms: row.starts_ms,
        ends_ms,
        start_when: t.start_when.unwrap_or(0) as u32,
        password: run.password.is_some(),
        unrated: run.unrated,
        no_chat: run.no_chat,
        bots: run.bots,
    }
}

/// The lists `player` sees: theirs, and the public ones (none in child mode).
pub async fn lists(
    server: &Arc<Server>,
    player: &str,
    child: bool,
) -> Result<(Vec<TournamentLine>, Vec<TournamentLine>), Refused> {
    let (mine, public) = server.store.tournaments_listed(player, LISTED).await?;
    let mut lines = (Vec::new(), Vec::new());
    for (rows, out) in [(mine, &mut lines.0), (public, &mut lines.1)] {
        for row in rows {
            let (run, t) = Run::of(&row)?;
            out.push(line(server, &row, &run, &t).await?);
        }
    }
    if child {
        lines.1.clear();
    }
    Ok(lines)
}

/// Send each player still in the tournament its page as it stands (the players named are
/// read once for all the pages).
pub async fn tell_players(server: &Arc<Server>, row: &TournamentRow, run: &Run) {
    let Some(t) = &run.tournament else { return };
    let names = match Names::read(server, row, run, None).await {
        Ok(names) => names,
        Err(e) => return tracing::warn!(tournament = %row.id, "a tournament's pages: {e}"),
    };
    for entrant in &t.entrants {
        if entrant.presence == oaq_tournament::Presence::Withdrawn {
            continue;
        }
        let viewer = match Viewer::of(server, Some(&entrant.id), &names.children).await {
            Ok(viewer) => viewer,
            Err(e) => return tracing::warn!(tournament = %row.id, "a tournament's pages: {e}"),
        };
        let view = names.view(row, run, &viewer);
        let notice = ServerMessage::Notice(Notice::Tournament { view });
        server.tell(&entrant.id, &notice).await;
    }
}

/// The tournaments, every `settings.tournament_tick`, until the server stops: each one this
/// node runs is started when due, its finished games recorded, and whoever waits paired.
pub async fn run(server: Arc<Server>) {
    let every = server.settings.tournament_tick;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut running: HashSet<String> = HashSet::new();
    // The version of each tournament whose pages its players were last sent.
    let mut told: HashMap<String, i64> = HashMap::new();
    let mut stopping = server.stopping.clone();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.changed() => return,
        }
        let ids = match server.store.tournaments_to_run().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("tournaments to run: {e}");
                continue;
            }
        };
        running.retain(|id| ids.contains(id));
        told.retain(|id, _| ids.contains(id));
        for id in ids {
            let runs = match &server.cluster {
                None => true,
                Some(cluster) => {
                    let ms = (every.as_millis() as u64).saturating_mul(5);
                    let claim = format!("oaq:tournament:{id}:runner");
                    cluster.runner(&claim, running.contains(&id), ms).await
                }
            };
            if !runs {
                running.remove(&id);
                continue;
            }
            running.insert(id.clone());
            if let Err(e) = step(&server, &id, &mut told).await {
                tracing::warn!(tournament = %id, "a tournament's step: {e:?}");
            }
        }
    }
}

/// One look at tournament `id`: start it when due, record the games that ended, pair whoever
/// waits, open their rooms and tell everyone.
async fn step(
    server: &Arc<Server>,
    id: &str,
    told: &mut HashMap<String, i64>,
) -> Result<(), Refused> {
    let Some(row) = server.store.tournament(id).await? else {
        return Ok(());
    };
    let (before, t) = Run::of(&row)?;
    let ended = ended_games(server, &before).await?;
    let blocks = apart_among(server, &t, before.bots).await?;
    let minute_ms = server.settings.tournament_minute.as_millis() as i64;
    let closes_ms = closes_ms(&row.clock, minute_ms);
    let (row, run) = change(server, id, |row, run, t| {
        let now = now_ms();
        let on_time = row.starts_ms > 0 && now >= row.starts_ms;
        let due = (t.phase == Phase::Open && on_time) || t.enough_joined();
        if due && t.start(now, minute_ms).is_err() {
            // Too few came: it ends without games.
            t.phase = Phase::Over;
        }
        for (game, code) in run.rooms.clone() {
            let Some(result) = ended.get(&code) else {
                continue;
            };
            record(t, game, result)?;
            run.rooms.retain(|(g, c)| !(*g == game && *c == code));
        }
        t.settle(now);
        let forbidden = |a: usize, b: usize| blocks.contains(&(a.min(b), a.max(b)));
        let mut coin = rand::random::<u64>();
        let games = t.pairings(now, closes_ms, forbidden, || {
            coin = coin.rotate_left(1);
            coin & 1 == 0
        });
        run.rooms
            .extend(games.into_iter().map(|g| (g, String::new())));
        Ok(Entry::Unchanged)
    })
    .await?;
    for (game, code) in &before.rooms {
        if let Some(seat) = ended.get(code).and_then(no_show) {
            let number = if seat == 0 { game.first } else { game.second };
            let why = format!(
                "you did not move in your game of the tournament \"{}\": you are out of it \
                 (join it again to come back)",
                row.name
            );
            let notice = ServerMessage::error(ErrorCode::NotAllowed, why);
            server.tell(&t.entrants[number].id, &notice).await;
        }
    }
    let opened = open_rooms(server, id, &row, &run).await?;
    // Every change since the last look (games, joins, breaks) reaches the players once.
    let (row, run) = match server.store.tournament(id).await? {
        Some(row) if opened => {
            let (run, _) = Run::of(&row)?;
            (row, run)
        }
        Some(latest) if latest.version != row.version => {
            let (run, _) = Run::of(&latest)?;
            (latest, run)
        }
        _ => (row, run),
    };
    if told.get(id) != Some(&row.version) {
        tell_players(server, &row, &run).await;
        told.insert(id.to_owned(), row.version);
    }
    Ok(())
}

/// No new game this close to an arena's end: at least half a minute, at most two, about
/// half of the time control's base.
fn closes_ms(clock: &ClockSpec, minute_ms: i64) -> i64 {
    let base_ms = match clock {
        ClockSpec::Fischer { base_ms, .. } => *base_ms as i64,
        _ => 0,
    };
    (base_ms / 2).clamp(minute_ms / 2, 2 * minute_ms)
}

/// The rooms of the games being played that have ended, with their results.
async fn ended_games(
    server: &Arc<Server>,
    run: &Run,
) -> Result<HashMap<String, GameResult>, StoreError> {
    let mut ended = HashMap::new();
    for (_, code) in &run.rooms {
        if code.is_empty() {
            continue;
        }
        if let Some(result) = server.store.room_result(code).await? {
            ended.insert(code.clone(), result);
        }
    }
    Ok(ended)
}

/// A game's end in the tournament: its result; or, aborted, a no-show withdrawn (in a round
/// robin or a Swiss the game is theirs lost, in an arena it does not count).
fn record(t: &mut Tournament, game: Pairing, result: &GameResult) -> Result<(), Refused> {
    if let Some(outcome) = outcome_of(result) {
        return Ok(t.finish(game, outcome)?);
    }
    let Some(seat) = no_show(result) else {
        return Ok(t.abort(game)?);
    };
    let absent = if seat == 0 { game.first } else { game.second };
    match t.format {
        Format::RoundRobin { .. } | Format::Swiss { .. } => {
            let first = if seat == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            t.finish(game, first)?;
        }
        Format::Arena { .. } => t.abort(game)?,
    }
    t.withdraw(absent)?;
    Ok(())
}

/// The seat that did not make its first move in time, for an aborted game.
fn no_show(result: &GameResult) -> Option<usize> {
    (result.cause == oaq_net::protocol::EndCause::Aborted)
        .then_some(result.by)
        .flatten()
}

/// The first mover's outcome (seat 0 moves first), or none for an aborted game.
fn outcome_of(result: &GameResult) -> Option<Outcome> {
    if result.cause == oaq_net::protocol::EndCause::Aborted || result.places.len() != 2 {
        return None;
    }
    Some(match result.places[0].cmp(&result.places[1]) {
        std::cmp::Ordering::Less => Outcome::Win,
        std::cmp::Ordering::Greater => Outcome::Loss,
        std::cmp::Ordering::Equal => Outcome::Draw,
    })
}

/// Who may not meet whom among the players, as pairs of numbers (lower first): the policy's
/// [`policy::apart`] for this tournament (blocks, a child and a stranger or a bot, a bot in a
/// tournament for people, a banned player).
async fn apart_among(
    server: &Arc<Server>,
    t: &Tournament,
    bots: bool,
) -> Result<policy::Apart, StoreError> {
    if t.phase == Phase::Over {
        return Ok(policy::Apart::new());
    }
    let ids: Vec<&str> = t.entrants.iter().map(|e| e.id.as_str()).collect();
    policy::apart(server, Meeting::Tournament { bots }, &ids).await
}

/// Open the rooms of the pairings waiting for one, write their codes back, and tell both
/// players. Whether any was opened.
async fn open_rooms(
    server: &Arc<Server>,
    id: &str,
    row: &TournamentRow,
    run: &Run,
) -> Result<bool, Refused> {
    let Some(t) = &run.tournament else {
        return Ok(false);
    };
    let waiting: Vec<Pairing> = run
        .rooms
        .iter()
        .filter(|(_, code)| code.is_empty())
        .map(|(g, _)| *g)
        .collect();
    for game in &waiting {
        let mut players = Vec::new();
        for number in [game.first, game.second] {
            let entrant = &t.entrants[number];
            let info = server.store.player(&entrant.id).await?;
            players.push(info.map(|p| p.info).ok_or_else(no_tournament)?);
        }
        let room = registry::NewRoom {
            preset: row.preset.clone(),
            rules: row.rules,
            clock: row.clock,
            first: First::Me,
            public: false,
            unrated: run.unrated,
            no_chat: run.no_chat,
        };
        let meeting = Meeting::Tournament { bots: run.bots };
        let code = match registry::seat_and_open(server, meeting, room, players.clone()).await {
            Ok(code) => code,
            Err(registry::OpenRefused::Store(e)) => return Err(e.into()),
            Err(refused) => {
                // A cap or a block stood in the way: the pair waits for the next wave.
                tracing::info!(tournament = %id, "a tournament game not opened: {refused:?}");
                let game = *game;
                change(server, id, move |_, run, t| {
                    t.abort(game).ok();
                    run.rooms.retain(|(g, c)| !(*g == game && c.is_empty()));
                    Ok(Entry::Unchanged)
                })
                .await?;
                continue;
            }
        };
        let (game, written) = (*game, code.clone());
        change(server, id, move |_, run, _| {
            if let Some(slot) = run
                .rooms
                .iter_mut()
                .find(|(g, c)| *g == game && c.is_empty())
            {
                slot.1 = written.clone();
            }
            Ok(Entry::Unchanged)
        })
        .await?;
        for (player, opponent) in players.iter().zip(players.iter().rev()) {
            let notice = ServerMessage::Notice(Notice::Paired { room: code.clone() });
            server.tell(&player.id, &notice).await;
            // A player away hears it on their devices ("your game against An has begun").
            let event = oaq_net::notify::Event::TournamentGame {
                code: code.clone(),
                tournament: row.name.clone(),
                opponent: opponent.name.clone(),
            };
            server.tell_away(&player.id, event).await;
        }
    }
    Ok(!waiting.is_empty())
}

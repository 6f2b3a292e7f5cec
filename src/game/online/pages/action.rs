//! What the pages' buttons do, as values: a page's action (`PageAction`), a tournament page's
//! (`TourAction`), and the events that carry one in from elsewhere (`Press`) or start a game
//! against the computer (`PlayComputer`). They are carried out in `actions`.

use bevy::prelude::*;

use super::state::OnlinePage;
use crate::net::social::ReportReason;

/// What the pages' buttons do.
#[derive(Component, Clone, Debug, PartialEq)]
pub enum PageAction {
    Open(OnlinePage),
    Back,
    AddFriend,
    AnswerFriend(String, bool),
    Remove(String),
    Block(String),
    Unblock(String),
    Challenge(String),
    AnswerChallenge(String, bool),
    CancelChallenge(String),
    Profile(String),
    Review(String),
    StartReport,
    Report(String, ReportReason),
    AddOpponent(String),
    LinkCode,
    UseLink,
    UseRecovery,
    RecoveryCode,
    SetLogin,
    SignIn,
    Revoke(String),
    ChildOn,
    ChildOff,
    AnswerParent,
    /// The first visit's question: a child (`true`) or a grown-up plays on this device.
    WhoPlays(bool),
    /// Wait in the pool of `POOLS[i]` (the form's rule set when it has pools).
    Pool(usize),
    LeavePool,
    /// Challenge the online bot nearest our rating, on the clock `POOLS[i]`.
    PlayBot(usize),
    /// Play the computer at this level while nobody is there to pair with.
    PlayComputer(u8),
    /// Open a game of ours by its room code.
    OpenGame(String),
    /// Go on vacation for so many days (0: come back).
    Vacation(u8),
    /// Switch one kind of notification on or off.
    Toggle(NotifyToggle),
    NotifyAllOff,
    SaveEmail,
    /// Have this device (a browser) notified.
    NotifyDevice,
    /// The answer to a link's code: use it (yes) or forget it.
    Follow(bool),
    /// Become the player this device was before again.
    GoBack,
    /// A tournament page's button.
    Tour(TourAction),
}

/// The notifications a player switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotifyToggle {
    YourTurn,
    Challenges,
    Ended,
    Digest,
}

/// What the tournament pages' buttons do.
#[derive(Clone, Debug, PartialEq)]
pub enum TourAction {
    /// Open a tournament's page.
    Open(String),
    /// Open the tournament whose code was typed.
    Find,
    Kind(Kind),
    Length(i8),
    Interval(i8),
    Start(i8),
    Public,
    Rated,
    Chat,
    Bots,
    Create,
    Join,
    Leave,
    Pause(bool),
    /// The organiser starts it now (a Swiss once begun: its next round).
    Begin,
    Invite(String),
    /// Begin (or stop) choosing two players to keep apart.
    ChooseApart,
    /// One of the two players to keep apart (an id).
    Apart(String),
    Watch(String),
    Play(String),
    /// Copy the link to the open tournament.
    CopyLink,
}

/// The three formats, as the choices name them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    #[default]
    Arena,
    Swiss,
    RoundRobin,
}

/// A press of a pages' button from elsewhere (the command line, a test).
#[derive(Event, Clone, Debug)]
pub struct Press(pub PageAction);

/// Start a game against the computer on this device (the pool had nobody for us).
#[derive(Event, Clone, Debug)]
pub struct PlayComputer {
    pub level: u8,
    pub rules: String,
}

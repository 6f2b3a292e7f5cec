//! The online game's buttons, by what they mean: around the board, in the chat and at the end.

use bevy::prelude::*;

/// An online game's button.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum GameAction {
    Resign,
    ResignYes,
    ResignNo,
    OfferDraw,
    AcceptDraw,
    Claim,
    /// Look back at the finished game with the engine.
    Review,
    Rematch,
    Leave,
    /// At the end of a tournament's game: back to its page (the next game comes by itself).
    Tournament,
    /// At the end: ask the opponent to be friends, or challenge them to a game later.
    AddFriend,
    ChallengeLater,
    /// Open or close the chat's phrases; say one; mute this game's chat.
    Chat,
    Say(crate::net::social::Phrase),
    Mute,
    /// At the end: report the opponent (the reasons open), for this reason.
    Report,
    ReportAs(crate::net::social::ReportReason),
}

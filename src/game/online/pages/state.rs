//! Which page the online screen shows, as Bevy states: the page open (`OnlinePage`, a sub-state
//! of `Screen::Online`), a question asked before anything else (`Asked`), where we sit
//! (`Seat`), and what follows from the three (`Showing`), which each layer of the screen is
//! spawned for and despawned with.

use bevy::prelude::*;
use bevy::state::state::FreelyMutableState;

use crate::game::state::Screen;

/// The page open on the online screen; the lobby's home while none is.
#[derive(SubStates, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[source(Screen = Screen::Online)]
pub enum OnlinePage {
    /// The lobby's home: our name, playing now, a room by its code, the public rooms.
    #[default]
    Home,
    /// The sheet of a room's own choices.
    Sheet,
    Leaderboard,
    Friends,
    /// Our profile, or another player's (`ProfileForm::other`).
    Profile,
    Account,
    /// Quick pairing: the pools' time controls, the wait, the computer offered.
    PlayNow,
    /// Our games by days, and our vacation.
    Games,
    /// What we are notified of, on which devices, and the daily e-mail.
    Notifications,
    /// Tournaments: ours, the public ones, one by its code.
    Tournaments,
    /// A new tournament's choices.
    NewTournament,
    /// One tournament (`TournamentForm::id`).
    Tournament,
}

impl OnlinePage {
    /// Whether the page is one of the pages of people, which covers the lobby (and a room
    /// waiting for players); the lobby's own faces (home, sheet, leaderboard) do not.
    pub fn covers_the_lobby(self) -> bool {
        !matches!(
            self,
            OnlinePage::Home | OnlinePage::Sheet | OnlinePage::Leaderboard
        )
    }

    /// The page's name as the web page's `data-page` says it.
    pub fn name(self) -> &'static str {
        match self {
            OnlinePage::Home => "home",
            OnlinePage::Sheet => "sheet",
            OnlinePage::Leaderboard => "leaderboard",
            OnlinePage::Friends => "friends",
            OnlinePage::Profile => "profile",
            OnlinePage::Account => "account",
            OnlinePage::PlayNow => "playnow",
            OnlinePage::Games => "games",
            OnlinePage::Notifications => "notifications",
            OnlinePage::Tournaments => "tournaments",
            OnlinePage::NewTournament => "newtournament",
            OnlinePage::Tournament => "tournament",
        }
    }
}

/// A question the online screen asks before anything else, following the client's state.
#[derive(SubStates, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[source(Screen = Screen::Online)]
pub enum Asked {
    #[default]
    Nothing,
    /// The first visit's: who plays on this device (a child or a grown-up).
    WhoPlays,
    /// A link's code was opened: follow it or not.
    Offer,
}

/// Where we sit, following the client's room: nowhere, in a room of ours waiting for players,
/// or in a room asked for that has not come.
#[derive(SubStates, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[source(Screen = Screen::Online)]
pub enum Seat {
    #[default]
    Free,
    Waiting,
    Joining,
}

/// What the online screen shows: the question asked, else a page of people, else the room we
/// sit in, else the lobby's page.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Showing {
    Asked(Asked),
    Page(OnlinePage),
    Seat(Seat),
}

impl ComputedStates for Showing {
    type SourceStates = (OnlinePage, Asked, Seat);

    fn compute((page, asked, seat): (OnlinePage, Asked, Seat)) -> Option<Showing> {
        Some(if asked != Asked::Nothing {
            Showing::Asked(asked)
        } else if page.covers_the_lobby() || seat == Seat::Free {
            Showing::Page(page)
        } else {
            Showing::Seat(seat)
        })
    }
}

impl Showing {
    /// Whether a page of people or a question covers the lobby: it takes the keys and presses.
    pub fn covers_the_lobby(self) -> bool {
        match self {
            Showing::Asked(_) => true,
            Showing::Page(page) => page.covers_the_lobby(),
            Showing::Seat(_) => false,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_sub_state::<OnlinePage>()
        .add_sub_state::<Asked>()
        .add_sub_state::<Seat>()
        .add_computed_state::<Showing>();
}

/// Whether the states have followed what was asked of them: nothing pending for the page, the
/// question or the seat. What the screen shows is drawn once they have (a frame after a press
/// that opens a page), not drawn for the old state and again for the new. False off the
/// online screen.
pub fn settled(
    page: Res<NextState<OnlinePage>>,
    asked: Res<NextState<Asked>>,
    seat: Res<NextState<Seat>>,
    now: (
        Option<Res<State<OnlinePage>>>,
        Option<Res<State<Asked>>>,
        Option<Res<State<Seat>>>,
    ),
) -> bool {
    fn pending<S: FreelyMutableState>(next: &NextState<S>, now: Option<&State<S>>) -> bool {
        match (next, now) {
            (NextState::Unchanged, _) => false,
            (NextState::PendingIfNeq(s), Some(now)) => s != now.get(),
            _ => true,
        }
    }
    let (page_now, asked_now, seat_now) = now;
    // Off the online screen there is nothing to draw.
    page_now.is_some()
        && !(pending(&page, page_now.as_deref())
            || pending(&asked, asked_now.as_deref())
            || pending(&seat, seat_now.as_deref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_comes_first_then_a_page_of_people_then_the_seat() {
        let compute = |p, a, s| Showing::compute((p, a, s));
        let (home, friends) = (OnlinePage::Home, OnlinePage::Friends);
        assert_eq!(
            compute(friends, Asked::Offer, Seat::Waiting),
            Some(Showing::Asked(Asked::Offer))
        );
        assert_eq!(
            compute(friends, Asked::Nothing, Seat::Waiting),
            Some(Showing::Page(friends))
        );
        assert_eq!(
            compute(OnlinePage::Sheet, Asked::Nothing, Seat::Joining),
            Some(Showing::Seat(Seat::Joining))
        );
        assert_eq!(
            compute(home, Asked::Nothing, Seat::Free),
            Some(Showing::Page(home))
        );
        assert!(!Showing::Seat(Seat::Waiting).covers_the_lobby());
        assert!(Showing::Asked(Asked::WhoPlays).covers_the_lobby());
        assert!(!Showing::Page(OnlinePage::Leaderboard).covers_the_lobby());
    }
}

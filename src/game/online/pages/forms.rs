//! The open page's form, to change: each page's form is there while its page is open, so
//! each is an `Option`. The pages' actions and the fields' typing change them through it.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::{
    AccountForm, Draft, FriendsForm, MailForm, ProfileForm, TournamentForm, TournamentsForm,
};

/// The pages' forms, each while its page is open.
#[derive(SystemParam)]
pub struct PageFormsMut<'w> {
    pub friends: Option<ResMut<'w, FriendsForm>>,
    pub profile: Option<ResMut<'w, ProfileForm>>,
    pub account: Option<ResMut<'w, AccountForm>>,
    pub mail: Option<ResMut<'w, MailForm>>,
    pub tournaments: Option<ResMut<'w, TournamentsForm>>,
    pub draft: Option<ResMut<'w, Draft>>,
    pub tournament: Option<ResMut<'w, TournamentForm>>,
}

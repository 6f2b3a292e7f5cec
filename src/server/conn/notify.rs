//! A connection's notification messages: the player's choices (and the e-mail address, checked
//! as an address), and this device's push subscription (its endpoint must be a push service's,
//! its keys a P-256 key and a 16-byte secret; ten devices a player at most).

use crate::net::notify::{MAX_SUBSCRIPTIONS, NotifySettings, PushSubscription};
use crate::net::protocol::{ErrorCode, Notice, ServerMessage};

use super::Conn;
use super::account::{Refused, refused};
use crate::server::mailbox::ConnRef;
use crate::server::settings::now_ms;

impl Conn {
    pub(super) async fn notifications(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let store = &self.server.store;
        let settings = store.notify_settings(&me.player.id).await?;
        let devices = store.subscriptions(&me.player.id).await?.len() as u64;
        self.send(&ServerMessage::Notice(Notice::Notifications {
            settings,
            push_key: self
                .server
                .push
                .as_ref()
                .map_or(String::new(), |p| p.public_key.clone()),
            devices,
            mail: self.server.mail.is_some(),
        }));
        Ok(())
    }

    pub(super) async fn set_notifications(
        &mut self,
        me: &ConnRef,
        mut settings: NotifySettings,
    ) -> Result<(), Refused> {
        settings.email = settings.email.trim().to_owned();
        if !settings.email.is_empty()
            && let Err(e) = settings.email.parse::<lettre::Address>()
        {
            return Err(refused(
                ErrorCode::BadMessage,
                format!(
                    "email: {} is not an address ({e})",
                    crate::excerpt::quoted(&settings.email)
                ),
            ));
        }
        if settings.digest && settings.email.is_empty() {
            return Err(refused(
                ErrorCode::BadMessage,
                "email: the daily e-mail needs an address",
            ));
        }
        self.server
            .store
            .set_notify_settings(&me.player.id, &settings)
            .await?;
        self.notifications(me).await
    }

    pub(super) async fn push_subscribe(
        &mut self,
        me: &ConnRef,
        subscription: PushSubscription,
    ) -> Result<(), Refused> {
        let Some(push) = self.server.push.clone() else {
            return Err(refused(
                ErrorCode::NotAllowed,
                "this server sends no pushes",
            ));
        };
        push.check(&subscription)
            .map_err(|why| refused(ErrorCode::BadMessage, why))?;
        let store = &self.server.store;
        let mine = store.subscriptions(&me.player.id).await?;
        let known = mine.iter().any(|s| s.endpoint == subscription.endpoint);
        if !known && mine.len() as u64 >= MAX_SUBSCRIPTIONS {
            return Err(refused(
                ErrorCode::NotAllowed,
                format!("{MAX_SUBSCRIPTIONS} devices are notified already: take one off first"),
            ));
        }
        store
            .subscribe(&me.player.id, &subscription, now_ms())
            .await?;
        self.notifications(me).await
    }

    pub(super) async fn push_unsubscribe(
        &mut self,
        me: &ConnRef,
        endpoint: &str,
    ) -> Result<(), Refused> {
        self.server
            .store
            .unsubscribe(endpoint, Some(&me.player.id))
            .await?;
        self.notifications(me).await
    }
}

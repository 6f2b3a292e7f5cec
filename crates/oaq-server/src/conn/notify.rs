//! A connection's notification messages: the player's choices (and the e-mail address, checked
//! as an address and confirmed by its owner before anything else is sent to it), and this
//! device's push subscription (its endpoint must be a push service's, its keys a P-256 key and a
//! 16-byte secret; ten devices a player at most, counted as it is written).

use oaq_net::notify::{MAX_SUBSCRIPTIONS, NotifySettings, PushSubscription};
use oaq_net::protocol::{ErrorCode, Notice, ServerMessage};

use super::Conn;
use super::account::{Refused, refused};
use crate::mailbox::ConnRef;
use crate::settings::now_ms;

impl Conn {
    pub(super) async fn notifications(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let store = &self.server.store;
        let mut settings = store.notify_settings(&me.player.id).await?;
        settings.confirmed = store.email(&me.player.id).await?.1;
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
                    oaq_rules::excerpt::quoted(&settings.email)
                ),
            ));
        }
        if settings.digest && settings.email.is_empty() {
            return Err(refused(
                ErrorCode::BadMessage,
                "email: the daily e-mail needs an address",
            ));
        }
        if let Some(mail) = self
            .server
            .mail
            .as_ref()
            .filter(|_| !settings.email.is_empty())
            && self
                .server
                .store
                .mail_refused(&mail.address_hash(&settings.email))
                .await?
        {
            return Err(refused(
                ErrorCode::NotAllowed,
                "email: that address asked to receive no e-mail from this server",
            ));
        }
        let (address, _) = self.server.store.email(&me.player.id).await?;
        if !settings.email.eq_ignore_ascii_case(&address) {
            self.new_address(me, &settings).await?;
        }
        self.server
            .store
            .set_notify_settings(&me.player.id, &settings)
            .await?;
        self.notifications(me).await
    }

    /// A new address for the daily e-mail: kept unconfirmed, and one e-mail sent to it with a
    /// link that confirms it, unless its owner refused our mail or it (or this player) had
    /// its confirmations for the day.
    async fn new_address(&self, me: &ConnRef, settings: &NotifySettings) -> Result<(), Refused> {
        let store = &self.server.store;
        let address = settings.email.as_str();
        let Some(mail) = self.server.mail.clone().filter(|_| !address.is_empty()) else {
            store.set_email(&me.player.id, address, None).await?;
            return Ok(());
        };
        let hash = mail.address_hash(address);
        let day = now_ms().div_euclid(86_400_000);
        let cap = self.server.settings.mails_per_address;
        let by_player = mail.address_hash(&format!("player {}", me.player.id));
        if !store.count_mail(&by_player, day, cap).await?
            || !store.count_mail(&hash, day, cap).await?
        {
            return Err(refused(
                ErrorCode::RateLimited,
                format!("email: at most {cap} confirmation e-mails a day; try again tomorrow"),
            ));
        }
        let nonce = crate::identity::new_id() + &crate::identity::new_id();
        store
            .set_email(&me.player.id, address, Some(&nonce))
            .await?;
        let message = mail
            .confirmation(address, settings.lang, &me.player.id, &nonce)
            .map_err(|e| refused(ErrorCode::BadMessage, format!("email: {e}")))?;
        let server = self.server.clone();
        // Sent off this connection's task: a slow mail server delays nobody.
        tokio::spawn(async move {
            let outcome = mail.send(message).await;
            server.metrics.mail_sent(outcome.is_ok());
            if let Err(e) = outcome {
                tracing::warn!("sending a confirmation e-mail: {e}");
            }
        });
        Ok(())
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
        let kept = store
            .subscribe(
                &me.player.id,
                &self.device,
                &subscription,
                now_ms(),
                MAX_SUBSCRIPTIONS,
            )
            .await?;
        if !kept {
            return Err(refused(
                ErrorCode::NotAllowed,
                format!("{MAX_SUBSCRIPTIONS} devices are notified already: take one off first"),
            ));
        }
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

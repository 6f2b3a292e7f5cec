//! A connection's account messages: link codes and recovery codes that carry the player to
//! another device, a sign-in name and password, the devices signed in, and child mode. Wrong
//! codes and passwords count against the address (and passwords against the name too), so
//! they cannot be guessed in bulk; a right one after the limit is refused all the same.

use oaq_net::protocol::{ErrorCode, Notice, ServerMessage};
use oaq_net::social::{
    Device, LINK_CODE_LEN, LINK_CODE_MS, RECOVERY_CODE_LEN, clean_login, is_code, normalize_code,
};

use super::Conn;
use crate::identity::{self, SignedIn};
use crate::mailbox::ConnRef;
use crate::policy::busy;
use crate::settings::now_ms;
use crate::shared::LOGIN_TRIES_PER_MINUTE;
use crate::store::Credentials;
use crate::store::StoreError;

/// Devices one player may have signed in at once.
const MAX_DEVICES: u64 = 50;

pub(super) use crate::refused::{Refused, refused};

impl Conn {
    pub(super) fn refused(&self, refusal: Refused) {
        match refusal {
            Refused::To(code, why) => self.error(code, why),
            Refused::Store(e) => self.unavailable(e),
        }
    }

    /// One more code or password from this address, counted before it is checked (so many
    /// sent at once cannot all pass the limit); a right one gives it back ([`Self::right`]).
    fn guess(&self) -> Result<(), Refused> {
        if self.server.wrong_codes.take(self.addr.ip()) {
            return Ok(());
        }
        Err(refused(
            ErrorCode::RateLimited,
            "too many wrong codes or passwords from your address: wait a minute",
        ))
    }

    /// The guess was right: it does not count.
    fn right(&self) {
        self.server.wrong_codes.give_back(self.addr.ip());
    }

    /// The guess was wrong (it was counted when it was made).
    fn wrong(&self, what: &str) -> Refused {
        refused(ErrorCode::BadCredentials, format!("{what} does not match"))
    }

    /// One more password hash from this address (never given back: a hash costs the same
    /// right or wrong).
    fn hash_allowed(&self) -> Result<(), Refused> {
        if self.server.hashes.take(self.addr.ip()) {
            return Ok(());
        }
        Err(refused(
            ErrorCode::RateLimited,
            format!(
                "more than {} passwords a minute from your address: wait a minute",
                self.server.settings.hashes_per_minute
            ),
        ))
    }

    /// Whether `current` is the account's password or its recovery code. The caller counted
    /// the guess and the hash.
    async fn proves(&self, creds: &Credentials, current: &str) -> Result<bool, Refused> {
        let code = normalize_code(current);
        if let Some(hash) = &creds.recovery_hash
            && is_code(&code, RECOVERY_CODE_LEN)
            && identity::hash_token(&code) == *hash
        {
            return Ok(true);
        }
        match &creds.password_hash {
            Some(phc) => self.verify(current.to_owned(), phc.clone()).await,
            None => Ok(false),
        }
    }

    /// A change to the account that the owner must prove (a new password, a new recovery
    /// code, child mode off): `current` must be its password or recovery code. Counted as a
    /// guess against the address, as a sign-in is.
    async fn prove_owner(
        &self,
        creds: &Credentials,
        current: Option<&str>,
        what: &str,
    ) -> Result<(), Refused> {
        let Some(current) = current.filter(|c| !c.is_empty()) else {
            return Err(refused(
                ErrorCode::NotAllowed,
                format!("{what}: give the current password or the recovery code first"),
            ));
        };
        self.guess()?;
        if let Err(e) = self.hash_allowed() {
            self.right();
            return Err(e);
        }
        match self.proves(creds, current).await {
            Ok(true) => {
                self.right();
                Ok(())
            }
            Ok(false) => Err(self.wrong("the current password or recovery code")),
            Err(e) => {
                self.right();
                Err(e)
            }
        }
    }

    /// Check `password` against `phc` in the hashing queue.
    async fn verify(&self, password: String, phc: String) -> Result<bool, Refused> {
        self.server
            .hashing
            .run(move || identity::verify_password(&password, &phc))
            .await
            .map_err(|_| busy())
    }

    /// Hash `password` in the hashing queue.
    async fn hash(&self, password: String) -> Result<String, Refused> {
        self.server
            .hashing
            .run(move || identity::hash_password(&password))
            .await
            .map_err(|_| busy())?
            .map_err(|e| refused(ErrorCode::Unavailable, e))
    }

    pub(super) async fn link_code(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let code = identity::new_code(LINK_CODE_LEN);
        let now = now_ms();
        let expires_ms = now + LINK_CODE_MS;
        self.server
            .store
            .put_link_code(&me.player.id, &identity::hash_token(&code), expires_ms, now)
            .await?;
        self.send(&ServerMessage::Notice(Notice::LinkCode {
            code,
            expires_ms,
        }));
        Ok(())
    }

    /// Become the player `player` on a new device of theirs.
    async fn switch_to(&mut self, player: &str) -> Result<(), Refused> {
        let store = &self.server.store;
        let Some(account) = store.player(player).await? else {
            return Err(refused(ErrorCode::NoSuchPlayer, "the player is gone"));
        };
        let private = store.private(player).await?;
        if private.banned {
            return Err(refused(
                ErrorCode::Banned,
                "this player is banned by the server's operators",
            ));
        }
        if store.device_count(player).await? >= MAX_DEVICES {
            return Err(refused(
                ErrorCode::NotAllowed,
                format!("{MAX_DEVICES} devices are signed in as this player: sign one out first"),
            ));
        }
        let label = store
            .devices(
                &self
                    .me
                    .as_ref()
                    .map(|m| m.player.id.clone())
                    .unwrap_or_default(),
            )
            .await?
            .into_iter()
            .find(|d| d.0 == self.device)
            .map(|d| d.1)
            .unwrap_or_default();
        let (token, device) = identity::new_device(store, player, &label).await?;
        self.become_player(SignedIn {
            player: account.info,
            token,
            device,
            child: private.child,
        })
        .await;
        Ok(())
    }

    pub(super) async fn link(&mut self, code: &str) -> Result<(), Refused> {
        let player = self.link_code_player(code, true).await?;
        self.switch_to(&player).await
    }

    /// The player whose link code this is, leaving the code usable: a wrong one counts as a
    /// wrong `link` does.
    pub(super) async fn link_code_owner(&self, code: &str) -> Result<String, Refused> {
        self.link_code_player(code, false).await
    }

    /// The player whose unexpired link code this is, the code used up (`take`) or left where it
    /// is; counted as a guess before the look-up, given back when right.
    async fn link_code_player(&self, code: &str, take: bool) -> Result<String, Refused> {
        self.guess()?;
        let code = normalize_code(code);
        if !is_code(&code, LINK_CODE_LEN) {
            return Err(self.wrong("the link code"));
        }
        let hash = identity::hash_token(&code);
        let store = &self.server.store;
        let found = match take {
            true => store.take_link_code(&hash, now_ms()).await,
            false => store.peek_link_code(&hash, now_ms()).await,
        };
        match found {
            Ok(Some(player)) => {
                self.right();
                Ok(player)
            }
            Ok(None) => Err(self.wrong("the link code (or it has expired)")),
            Err(e) => {
                self.right();
                Err(e.into())
            }
        }
    }

    /// A new recovery code; one that replaces a code or stands beside a password needs one of
    /// them.
    pub(super) async fn recovery_code(
        &mut self,
        me: &ConnRef,
        current: Option<&str>,
    ) -> Result<(), Refused> {
        let creds = self.server.store.credentials(&me.player.id).await?;
        if creds.any() {
            self.prove_owner(&creds, current, "a new recovery code")
                .await?;
        }
        let code = identity::new_code(RECOVERY_CODE_LEN);
        self.server
            .store
            .set_recovery(&me.player.id, &identity::hash_token(&code))
            .await?;
        self.send(&ServerMessage::Notice(Notice::RecoveryCode { code }));
        Ok(())
    }

    pub(super) async fn recover(&mut self, code: &str) -> Result<(), Refused> {
        self.guess()?;
        let code = normalize_code(code);
        if !is_code(&code, RECOVERY_CODE_LEN) {
            return Err(self.wrong("the recovery code"));
        }
        let hash = identity::hash_token(&code);
        match self.server.store.player_by_recovery(&hash).await {
            Ok(Some(player)) => {
                self.right();
                self.switch_to(&player).await
            }
            Ok(None) => Err(self.wrong("the recovery code")),
            Err(e) => {
                self.right();
                Err(e.into())
            }
        }
    }

    /// Set a sign-in name and password. Whether a name is taken is said only after the new
    /// password was hashed (the insert finds it), and each try is counted per player and per
    /// address first, so names cannot be listed in bulk. A player who has a password must
    /// give it (or the recovery code) to change either, and every other device is signed out.
    pub(super) async fn set_login(
        &mut self,
        me: &ConnRef,
        login: &str,
        password: &str,
        current: Option<&str>,
    ) -> Result<(), Refused> {
        let login = clean_login(login).map_err(|e| refused(ErrorCode::BadMessage, e))?;
        let store = &self.server.store;
        let creds = store.credentials(&me.player.id).await?;
        if !self.server.login_tries.take_key(me.player.id.clone()) {
            return Err(refused(
                ErrorCode::RateLimited,
                format!("more than {LOGIN_TRIES_PER_MINUTE} sign-in names a minute: wait a minute"),
            ));
        }
        let changing = creds.password_hash.is_some();
        if changing {
            self.prove_owner(&creds, current, "a new sign-in name or password")
                .await?;
        }
        self.hash_allowed()?;
        let phc = self.hash(password.to_owned()).await?;
        match store.set_login(&me.player.id, &login, &phc).await {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                return Err(refused(
                    ErrorCode::NotAllowed,
                    format!("login: {login} is taken; choose another"),
                ));
            }
            Err(e) => return Err(e.into()),
        }
        if changing {
            self.sign_out_others(me).await?;
        }
        self.profile(me, None).await
    }

    /// Every device of the player but this one is signed out (a new password).
    async fn sign_out_others(&self, me: &ConnRef) -> Result<(), Refused> {
        let gone = self
            .server
            .store
            .revoke_other_devices(&me.player.id, &self.device)
            .await?;
        let bye = ServerMessage::error(
            ErrorCode::BadCredentials,
            "the password was changed: this device was signed out",
        );
        for device in gone {
            self.server
                .sign_out(&me.player.id, Some(&device), &bye)
                .await;
        }
        Ok(())
    }

    /// Sign in with a name and password ([`crate::policy::sign_in`]: a guess, counted before
    /// the password is checked).
    pub(super) async fn sign_in(&mut self, login: &str, password: &str) -> Result<(), Refused> {
        let server = self.server.clone();
        let ip = self.addr.ip();
        let player = crate::policy::sign_in(&server, ip, login, password.to_owned()).await?;
        self.switch_to(&player).await
    }

    pub(super) async fn devices(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let devices = self
            .server
            .store
            .devices(&me.player.id)
            .await?
            .into_iter()
            .map(|(id, label, created_ms, last_ms)| Device {
                this: id == self.device,
                id,
                label,
                created_ms,
                last_ms,
            })
            .collect();
        self.send(&ServerMessage::Notice(Notice::Devices { devices }));
        Ok(())
    }

    pub(super) async fn revoke_device(&mut self, me: &ConnRef, id: &str) -> Result<(), Refused> {
        if !self.server.store.revoke_device(&me.player.id, id).await? {
            return Err(refused(
                ErrorCode::NotAllowed,
                "that device is not one of yours",
            ));
        }
        let bye = ServerMessage::error(ErrorCode::BadCredentials, "this device was signed out");
        if id == self.device {
            self.send(&bye);
            self.close.notify_one();
            return Ok(());
        }
        self.server.sign_out(&me.player.id, Some(id), &bye).await;
        self.devices(me).await
    }

    /// Child mode on at once; off with the account's password or recovery code, or, for an
    /// account with neither, after a day, every device of the player told now. It holds on all
    /// of the player's connections at once: each reads it from the store when it matters.
    pub(super) async fn set_child(
        &mut self,
        me: &ConnRef,
        child: bool,
        current: Option<&str>,
    ) -> Result<(), Refused> {
        let store = &self.server.store;
        if child {
            store.set_child_now(&me.player.id, true).await?;
            return self.profile(me, None).await;
        }
        if !store.is_child(&me.player.id, now_ms()).await? {
            return self.profile(me, None).await;
        }
        let creds = store.credentials(&me.player.id).await?;
        if creds.any() {
            self.prove_owner(&creds, current, "child mode off").await?;
            store.set_child_now(&me.player.id, false).await?;
            return self.profile(me, None).await;
        }
        let wait = self.server.settings.day_ms() as i64;
        store.child_off_at(&me.player.id, now_ms() + wait).await?;
        // Every device of the player, this one too, hears when child mode will end (and can
        // switch it on again before).
        self.tell_own_profile(me).await
    }
}

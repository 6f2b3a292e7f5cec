//! A connection's account messages: link codes and recovery codes that carry the player to
//! another device, a sign-in name and password, the devices signed in, and child mode. Wrong
//! codes and passwords count against the address (and passwords against the name too), so
//! they cannot be guessed in bulk; a right one after the limit is refused all the same.

use crate::net::protocol::{ErrorCode, Notice, ServerMessage};
use crate::net::social::{
    Device, LINK_CODE_LEN, LINK_CODE_MS, RECOVERY_CODE_LEN, clean_login, is_code, normalize_code,
};

use super::Conn;
use crate::server::identity::{self, SignedIn};
use crate::server::mailbox::ConnRef;
use crate::server::settings::now_ms;
use crate::server::store::StoreError;

/// Devices one player may have signed in at once.
const MAX_DEVICES: u64 = 50;

/// How an account message went wrong.
pub(super) enum Refused {
    To(ErrorCode, String),
    Store(StoreError),
}

/// A refusal with its code and what is wrong.
pub(super) fn refused(code: ErrorCode, why: impl Into<String>) -> Refused {
    Refused::To(code, why.into())
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Self {
        Refused::Store(e)
    }
}

impl Conn {
    pub(super) fn refused(&self, refusal: Refused) {
        match refusal {
            Refused::To(code, why) => self.error(code, why),
            Refused::Store(e) => self.unavailable(e),
        }
    }

    /// Whether this address may try one more code or password.
    fn may_guess(&self) -> Result<(), Refused> {
        if self.server.wrong_codes.allow(self.addr.ip()) {
            return Ok(());
        }
        Err(refused(
            ErrorCode::RateLimited,
            "too many wrong codes or passwords from your address: wait a minute",
        ))
    }

    fn wrong(&self, what: &str) -> Refused {
        self.server.wrong_codes.take(self.addr.ip());
        refused(ErrorCode::BadCredentials, format!("{what} does not match"))
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
        self.may_guess()?;
        let code = normalize_code(code);
        if !is_code(&code, LINK_CODE_LEN) {
            return Err(self.wrong("the link code"));
        }
        let hash = identity::hash_token(&code);
        match self.server.store.take_link_code(&hash, now_ms()).await? {
            Some(player) => self.switch_to(&player).await,
            None => Err(self.wrong("the link code (or it has expired)")),
        }
    }

    pub(super) async fn recovery_code(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let code = identity::new_code(RECOVERY_CODE_LEN);
        self.server
            .store
            .set_recovery(&me.player.id, &identity::hash_token(&code))
            .await?;
        self.send(&ServerMessage::Notice(Notice::RecoveryCode { code }));
        Ok(())
    }

    pub(super) async fn recover(&mut self, code: &str) -> Result<(), Refused> {
        self.may_guess()?;
        let code = normalize_code(code);
        if !is_code(&code, RECOVERY_CODE_LEN) {
            return Err(self.wrong("the recovery code"));
        }
        let hash = identity::hash_token(&code);
        match self.server.store.player_by_recovery(&hash).await? {
            Some(player) => self.switch_to(&player).await,
            None => Err(self.wrong("the recovery code")),
        }
    }

    pub(super) async fn set_login(
        &mut self,
        me: &ConnRef,
        login: &str,
        password: &str,
    ) -> Result<(), Refused> {
        let login = clean_login(login).map_err(|e| refused(ErrorCode::BadMessage, e))?;
        if let Some((owner, _)) = self.server.store.login(&login).await?
            && owner != me.player.id
        {
            return Err(refused(
                ErrorCode::NotAllowed,
                format!("login: {login} is taken; choose another"),
            ));
        }
        let phc = hash_off_thread(password.to_owned()).await?;
        match self
            .server
            .store
            .set_login(&me.player.id, &login, &phc)
            .await
        {
            Ok(()) => {}
            // Taken meanwhile by another player.
            Err(StoreError::Conflict) => {
                return Err(refused(
                    ErrorCode::NotAllowed,
                    format!("login: {login} is taken; choose another"),
                ));
            }
            Err(e) => return Err(e.into()),
        }
        self.profile(me, None).await
    }

    pub(super) async fn sign_in(&mut self, login: &str, password: &str) -> Result<(), Refused> {
        self.may_guess()?;
        let Ok(login) = clean_login(login) else {
            return Err(self.wrong("the login or the password"));
        };
        if !self.server.wrong_passwords.allow_key(login.clone()) {
            return Err(refused(
                ErrorCode::RateLimited,
                format!("too many wrong passwords for {login}: wait a minute"),
            ));
        }
        let account = self.server.store.login(&login).await?;
        // Without such a name, a hash is checked all the same: the answer takes as long, and
        // tells nobody which names exist.
        let phc = account.as_ref().map_or_else(dummy, |a| a.1.clone());
        let right = verify_off_thread(password.to_owned(), phc).await?;
        match account {
            Some((player, _)) if right => self.switch_to(&player).await,
            _ => {
                self.server.wrong_passwords.take_key(login);
                Err(self.wrong("the login or the password"))
            }
        }
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

    pub(super) async fn set_child(&mut self, me: &ConnRef, child: bool) -> Result<(), Refused> {
        self.server.store.set_child(&me.player.id, child).await?;
        self.child = child;
        self.profile(me, None).await
    }
}

/// An argon2id string of no password anyone has, checked when a name does not exist.
fn dummy() -> String {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| identity::hash_password("no one's password").unwrap_or_default())
        .clone()
}

/// Hashes at once at most: each takes 19 MiB and a core for tens of milliseconds, so a crowd
/// of sign-ins queues here instead of taking the machine's memory.
static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(4);

async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Refused> {
    let _permit = HASHING
        .acquire()
        .await
        .map_err(|e| refused(ErrorCode::Unavailable, format!("hashing: {e}")))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| refused(ErrorCode::Unavailable, format!("hashing: {e}")))
}

async fn hash_off_thread(password: String) -> Result<String, Refused> {
    off_thread(move || identity::hash_password(&password))
        .await?
        .map_err(|e| refused(ErrorCode::Unavailable, e))
}

async fn verify_off_thread(password: String, phc: String) -> Result<bool, Refused> {
    off_thread(move || identity::verify_password(&password, &phc)).await
}

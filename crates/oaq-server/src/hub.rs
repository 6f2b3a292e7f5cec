//! Who is connected to this node, by player: where to send a player's notices (a friend
//! request, a challenge, a chat phrase), and how to sign a player or one of their devices out
//! (a ban, a revoked device). Other nodes reach a player here through the cluster.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, mpsc};

use crate::mailbox::Frame;

/// The device name of the bot API's streams in the hub: a bot's token revoked signs out these.
pub const BOT_API: &str = "bot-api";

/// One connection of a player.
pub struct Member {
    pub conn: u64,
    pub device: String,
    pub tx: mpsc::Sender<Frame>,
    pub close: Arc<Notify>,
}

#[derive(Default)]
pub struct Hub {
    players: Mutex<HashMap<String, Vec<Member>>>,
}

impl Hub {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, Vec<Member>>) -> T) -> T {
        f(&mut self.players.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// `member` is connected as `player`; whether it is the player's first connection here.
    pub fn enter(&self, player: &str, member: Member) -> bool {
        self.with(|players| {
            let members = players.entry(player.to_owned()).or_default();
            members.push(member);
            members.len() == 1
        })
    }

    /// Connection `conn` of `player` is gone; whether it was the player's last one here.
    pub fn leave(&self, player: &str, conn: u64) -> bool {
        self.with(|players| {
            let Some(members) = players.get_mut(player) else {
                return false;
            };
            members.retain(|m| m.conn != conn);
            let last = members.is_empty();
            if last {
                players.remove(player);
            }
            last
        })
    }

    /// Send `frame` to every connection of `player` here; whether there was one. A connection
    /// too slow to take it is closed (it comes back and asks again).
    pub fn send(&self, player: &str, frame: &Frame) -> bool {
        self.with(|players| {
            let Some(members) = players.get(player) else {
                return false;
            };
            for m in members {
                if m.tx.try_send(frame.clone()).is_err() {
                    m.close.notify_one();
                }
            }
            true
        })
    }

    /// Send `frame` to, then close, every connection of `player` here (of `device` only, when
    /// given); how many.
    pub fn sign_out(&self, player: &str, device: Option<&str>, frame: &Frame) -> usize {
        self.with(|players| {
            let Some(members) = players.get(player) else {
                return 0;
            };
            let mut n = 0;
            for m in members
                .iter()
                .filter(|m| device.is_none_or(|d| m.device == d))
            {
                let _ = m.tx.try_send(frame.clone());
                m.close.notify_one();
                n += 1;
            }
            n
        })
    }

    pub fn is_here(&self, player: &str) -> bool {
        self.with(|players| players.contains_key(player))
    }

    /// Every player connected here.
    pub fn players(&self) -> Vec<String> {
        self.with(|players| players.keys().cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(conn: u64, device: &str) -> (Member, mpsc::Receiver<Frame>, Arc<Notify>) {
        let (tx, rx) = mpsc::channel(4);
        let close = Arc::new(Notify::new());
        let m = Member {
            conn,
            device: device.into(),
            tx,
            close: close.clone(),
        };
        (m, rx, close)
    }

    #[tokio::test]
    async fn players_are_reached_on_every_connection_and_signed_out_by_device() {
        let hub = Hub::default();
        let (a, mut rx_a, _) = member(1, "phone");
        let (b, mut rx_b, close_b) = member(2, "laptop");
        assert!(hub.enter("p", a));
        assert!(!hub.enter("p", b));
        assert!(hub.send("p", &Frame::from("hi")));
        assert_eq!(rx_a.recv().await.unwrap().as_str(), "hi");
        assert_eq!(rx_b.recv().await.unwrap().as_str(), "hi");
        assert!(!hub.send("q", &Frame::from("hi")));
        assert_eq!(hub.sign_out("p", Some("laptop"), &Frame::from("bye")), 1);
        assert_eq!(rx_b.recv().await.unwrap().as_str(), "bye");
        tokio::time::timeout(std::time::Duration::from_secs(1), close_b.notified())
            .await
            .unwrap();
        assert!(rx_a.try_recv().is_err(), "the phone stays signed in");
        assert!(!hub.leave("p", 2));
        assert!(hub.leave("p", 1));
        assert!(!hub.is_here("p"));
    }
}

/// The addresses (IPv6 by their /64) each player's devices signed in from lately, a few per
/// player: a home, a school, a phone's network.
#[derive(Default)]
pub struct KnownAddresses {
    players: Mutex<HashMap<String, Vec<std::net::IpAddr>>>,
}

/// Addresses remembered per player, and players in all (past it the map starts again: the
/// owner at home is then held to the stranger's limit until she signs in again).
const ADDRESSES_PER_PLAYER: usize = 8;
const PLAYERS_REMEMBERED: usize = 100_000;

impl KnownAddresses {
    /// `player` signed in from `addr`.
    pub fn note(&self, player: &str, addr: std::net::IpAddr) {
        let key = crate::limits::client_key(addr);
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        if players.len() >= PLAYERS_REMEMBERED && !players.contains_key(player) {
            players.clear();
        }
        let known = players.entry(player.to_owned()).or_default();
        known.retain(|&a| a != key);
        known.push(key);
        if known.len() > ADDRESSES_PER_PLAYER {
            known.remove(0);
        }
    }

    /// Whether `player` signed in from `addr` lately.
    pub fn knows(&self, player: &str, addr: std::net::IpAddr) -> bool {
        let key = crate::limits::client_key(addr);
        let players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        players
            .get(player)
            .is_some_and(|known| known.contains(&key))
    }
}

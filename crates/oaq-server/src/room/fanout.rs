//! Who is in a room on this node: each connection with the seat it holds (or none, watching).

use super::{ConnRef, Frame};

pub struct Subscriber {
    pub conn: ConnRef,
    pub seat: Option<usize>,
}

#[derive(Default)]
pub struct Subscribers {
    list: Vec<Subscriber>,
}

impl Subscribers {
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Add `conn` (again: a second join of the same connection replaces the first).
    pub fn add(&mut self, conn: ConnRef, seat: Option<usize>) {
        self.remove(conn.id);
        self.list.push(Subscriber { conn, seat });
    }

    pub fn remove(&mut self, conn: u64) -> Option<Subscriber> {
        let i = self.list.iter().position(|s| s.conn.id == conn)?;
        Some(self.list.swap_remove(i))
    }

    pub fn get(&self, conn: u64) -> Option<&Subscriber> {
        self.list.iter().find(|s| s.conn.id == conn)
    }

    /// Whether some connection here holds `seat`.
    pub fn holds(&self, seat: usize) -> bool {
        self.list.iter().any(|s| s.seat == Some(seat))
    }

    pub fn send_all(&self, frame: &Frame) {
        for s in &self.list {
            s.conn.send(frame.clone());
        }
    }
}

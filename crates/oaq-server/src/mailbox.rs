//! What rooms and connections pass each other: a connection as a room sees it, the commands a
//! room's task takes, and the handle to send them. Plain types at the bottom of the server, so
//! the cluster's fan-out and the shared state can name a room's mailbox without the room.

use std::sync::Arc;

use tokio::sync::{Notify, mpsc, oneshot};

use oaq_net::protocol::{ErrorCode, PlayerInfo, Sequenced, ServerMessage};

/// A text frame, shared between the connections it goes to without copying.
pub type Frame = axum::extract::ws::Utf8Bytes;

/// A connection as a room sees it: where to send its frames, and how to close it.
#[derive(Clone)]
pub struct ConnRef {
    pub id: u64,
    pub player: PlayerInfo,
    pub tx: mpsc::Sender<Frame>,
    pub close: Arc<Notify>,
}

impl ConnRef {
    /// Send a frame without waiting; a connection too slow to take it is closed (it will come
    /// back and catch up from its last `seq`).
    pub fn send(&self, frame: Frame) {
        if self.tx.try_send(frame).is_err() {
            self.close.notify_one();
        }
    }

    pub fn reply(&self, msg: &ServerMessage) {
        self.send(msg.to_json().into());
    }

    pub fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.reply(&ServerMessage::error(code, message));
    }
}

/// The ply of a move sent without one (the bot API's `move` without `?ply=`): the turn now.
pub const THIS_PLY: u32 = u32::MAX;

/// What a seated player (or anyone in the room) asks for.
#[derive(Clone, Debug)]
pub enum Action {
    Move {
        ply: u32,
        mv: String,
        think_ms: Option<u64>,
    },
    Resign,
    OfferDraw,
    AcceptDraw,
    Rematch,
    Claim,
    /// A chat phrase to the room's other players.
    Chat(oaq_net::social::Phrase),
}

pub enum Command {
    Join {
        conn: ConnRef,
        since: Option<u64>,
        watch: bool,
        /// Answered once the room has taken the connection in (or refused it).
        done: oneshot::Sender<bool>,
    },
    Leave {
        conn: u64,
        /// Only going to another room: a correspondence game waiting for an opponent keeps
        /// its creator's seat (a `leave` asked for gives it up).
        switching: bool,
    },
    Gone {
        conn: u64,
    },
    Act {
        conn: u64,
        action: Action,
    },
    /// `player` acts in their seat without being in the room (the bot API's requests);
    /// answered with the refusal, if any.
    ActAs {
        player: String,
        action: Action,
        reply: oneshot::Sender<ActReply>,
    },
    /// An event another node wrote (cluster fan-out).
    Remote(Sequenced),
    /// The fan-out was lost for a while: read what the log has that this node has not seen.
    CatchUp,
    /// Bring this room back after a restart or a node's loss: the clocks start again.
    Resume,
    /// An operator banned `player`: give up their seat if the game has not begun.
    Expel {
        player: String,
    },
    /// A player of this correspondence game went on vacation or came back: pause or resume
    /// the clocks to match.
    Vacations,
    /// A correspondence game as `player` sees it in their list (`None`: not theirs).
    Peek {
        player: String,
        reply: oneshot::Sender<Option<oaq_net::correspondence::MyGame>>,
    },
    Stop,
}

/// How a room answers [`Command::ActAs`]: done, or refused with a code, what is wrong and
/// (for an illegal move) the legal moves.
pub type ActReply = Result<(), (ErrorCode, String, Option<Vec<String>>)>;

#[derive(Clone)]
pub struct RoomHandle {
    pub tx: mpsc::Sender<Command>,
    /// Tells this task apart from a later one for the same code.
    pub generation: u64,
}

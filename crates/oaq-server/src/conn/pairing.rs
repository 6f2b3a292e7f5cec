//! A connection's quick pairing: joining a pool ("Play now") and leaving it. The pool itself
//! (waves, pairing, the computer offered) is [`crate::pool`].

use oaq_net::protocol::{ClockSpec, ErrorCode, Notice, ServerMessage};

use super::Conn;
use super::account::{Refused, refused};
use crate::mailbox::ConnRef;

impl Conn {
    pub(super) async fn pool(
        &mut self,
        me: &ConnRef,
        rules: String,
        clock: ClockSpec,
    ) -> Result<(), Refused> {
        // Fresh: the rating pairs by, as the store has it after the last game.
        let mut player = me.player.clone();
        if let Some(row) = self.server.store.player(&player.id).await? {
            player = row.info;
        }
        // Who may be pooled at all is the policy's (no child, no bot); it asks again as it
        // pairs.
        crate::policy::may_meet(&self.server, crate::policy::Meeting::Pool, &player).await?;
        let paired_last = crate::waves::join(&self.server, self.id, player, &rules, clock)
            .await
            .map_err(|e| refused(ErrorCode::Unavailable, e))?;
        self.send(&ServerMessage::Notice(Notice::Pooled {
            rules,
            clock,
            paired_last,
        }));
        Ok(())
    }

    /// Leave the pool this connection waits in; `asked`: say so (else it is a side effect of
    /// going into a room).
    pub(super) async fn unpool(&mut self, me: &ConnRef, asked: bool) {
        let left = crate::waves::leave(&self.server, &me.player.id, Some(self.id)).await;
        if left || asked {
            self.send(&ServerMessage::Notice(Notice::Unpooled));
        }
    }
}

//! A request refused, as every way in (a WebSocket message, the bot API) reports it: a code of
//! the protocol and what is wrong, or the store failing. A refusal changes nothing.

use oaq_net::protocol::ErrorCode;

use crate::store::StoreError;

/// Why a request was not carried out.
#[derive(Debug)]
pub enum Refused {
    To(ErrorCode, String),
    Store(StoreError),
}

/// A refusal with its code and what is wrong.
pub fn refused(code: ErrorCode, why: impl Into<String>) -> Refused {
    Refused::To(code, why.into())
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Self {
        Refused::Store(e)
    }
}

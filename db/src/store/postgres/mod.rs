//! What only PostgreSQL does: telling the other replicas (NOTIFY on one channel, `skirmish`,
//! sent in the transaction of the change it announces, so it is delivered only if that commits)
//! and hearing them (one listener connection per store, see `listener.rs`).
//!
//! A notification only says that something changed; the change itself is read from the
//! database (events by `seq` from the log), so a missed notification costs latency, never an
//! event: a stream that sees a gap reads it from the log.

pub(crate) mod heard;
pub(crate) mod listener;

use crate::backend::DbConnection;
use crate::error::DbError;
use diesel::RunQueryDsl;

/// The channel every replica listens on.
pub(crate) const CHANNEL: &str = "skirmish";

/// What one replica tells the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Notice {
    /// Events `first..=last` were appended to the encounter's log.
    Appended { encounter: String, first: i64, last: i64 },
    /// The encounter was deleted.
    Deleted { encounter: String },
    /// A viewer link was revoked.
    ViewerRevoked { viewer: String },
    /// An API key was revoked.
    KeyRevoked,
    /// The tenant's webhook subscriptions changed.
    WebhooksChanged { tenant: String },
}

impl Notice {
    /// The payload: the sending store's `origin`, then the notice, separated by tabs (ids and
    /// tenants hold no tab: tenants are checked names, ids are generated).
    pub(crate) fn payload(&self, origin: &str) -> String {
        match self {
            Self::Appended { encounter, first, last } => format!("{origin}\tE\t{encounter}\t{first}\t{last}"),
            Self::Deleted { encounter } => format!("{origin}\tD\t{encounter}"),
            Self::ViewerRevoked { viewer } => format!("{origin}\tV\t{viewer}"),
            Self::KeyRevoked => format!("{origin}\tK"),
            Self::WebhooksChanged { tenant } => format!("{origin}\tW\t{tenant}"),
        }
    }

    /// The sender's origin and the notice of a payload; `None` for anything else.
    fn parse(payload: &str) -> Option<(&str, Self)> {
        let mut fields = payload.split('\t');
        let origin = fields.next()?;
        let notice = match (fields.next()?, fields.next(), fields.next(), fields.next()) {
            ("E", Some(encounter), Some(first), Some(last)) => Self::Appended {
                encounter: encounter.to_owned(),
                first: first.parse().ok()?,
                last: last.parse().ok()?,
            },
            ("D", Some(encounter), None, None) => Self::Deleted { encounter: encounter.to_owned() },
            ("V", Some(viewer), None, None) => Self::ViewerRevoked { viewer: viewer.to_owned() },
            ("K", None, None, None) => Self::KeyRevoked,
            ("W", Some(tenant), None, None) => Self::WebhooksChanged { tenant: tenant.to_owned() },
            _ => return None,
        };
        Some((origin, notice))
    }
}

/// Sends `notice` from the store `origin` in the open transaction on `conn` (delivered when it
/// commits); nothing on SQLite, where one process is all there is.
pub(crate) fn tell(conn: &mut DbConnection, origin: &str, notice: &Notice) -> Result<(), DbError> {
    if let DbConnection::Pg(pg) = conn {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<diesel::sql_types::Text, _>(CHANNEL)
            .bind::<diesel::sql_types::Text, _>(notice.payload(origin))
            .execute(pg)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notice_reads_back_as_sent() {
        let notices = [
            Notice::Appended { encounter: "enc_1".into(), first: 3, last: 5 },
            Notice::Deleted { encounter: "enc_1".into() },
            Notice::ViewerRevoked { viewer: "vw_1".into() },
            Notice::KeyRevoked,
            Notice::WebhooksChanged { tenant: "guild".into() },
        ];
        for notice in notices {
            assert_eq!(Notice::parse(&notice.payload("o1")), Some(("o1", notice.clone())));
        }
        assert_eq!(Notice::parse("o1\tE\tenc_1\tx\t2"), None);
        assert_eq!(Notice::parse("nonsense"), None);
    }
}

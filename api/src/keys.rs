//! `skirmish keys create|list|revoke`: API key management on the command line. A key's secret
//! is printed once, at creation; only its SHA-256 digest is stored.

use clap::Subcommand;
use rand::RngExt;
use skirmish_db::{DbError, Store};

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key for a tenant and print it (once).
    Create {
        /// The tenant (group) the key acts for: 1–64 of A–Z a–z 0–9 . _ -
        #[arg(long)]
        tenant: String,
    },
    /// List keys (ids and tenants, never secrets).
    List,
    /// Revoke a key by id; requests with it then get 401.
    Revoke { key_id: String },
}

fn valid_tenant(tenant: &str) -> bool {
    (1..=64).contains(&tenant.len())
        && tenant.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

fn random_hex(bytes: usize) -> String {
    let mut rng = rand::rng();
    (0..bytes).map(|_| format!("{:02x}", rng.random::<u8>())).collect()
}

/// Runs a keys command against the database, returning what to print.
pub fn run(store: &Store, command: KeysCommand) -> Result<String, String> {
    let db = |error: DbError| error.to_string();
    match command {
        KeysCommand::Create { tenant } => {
            if !valid_tenant(&tenant) {
                return Err(format!("--tenant: '{tenant}' must be 1 to 64 of A-Z a-z 0-9 . _ -"));
            }
            let (id, secret) = (format!("key_{}", random_hex(8)), format!("sk_{}", random_hex(32)));
            store.create_key(&id, &tenant, &secret).map_err(db)?;
            Ok(format!(
                "Created {id} for tenant '{tenant}'. The key is shown only this once:\n{secret}\n\
                 Send it as: Authorization: Bearer {secret}"
            ))
        }
        KeysCommand::List => {
            let keys = store.list_keys().map_err(db)?;
            let mut lines = vec![format!("{:<22} {:<24} {:<26} status", "id", "tenant", "created")];
            for key in keys {
                let status = key.revoked_at.map_or("active".to_owned(), |at| format!("revoked {at}"));
                lines.push(format!("{:<22} {:<24} {:<26} {status}", key.id, key.tenant, key.created_at));
            }
            Ok(lines.join("\n"))
        }
        KeysCommand::Revoke { key_id } => match store.revoke_key(&key_id).map_err(db)? {
            true => Ok(format!("Revoked {key_id}.")),
            false => Err(format!("no active key '{key_id}'")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenant_names_are_checked() {
        for good in ["guild", "table-7", "a.b_c"] {
            assert!(valid_tenant(good), "{good}");
        }
        for bad in ["", "has space", "ünï", &"x".repeat(65)] {
            assert!(!valid_tenant(bad), "{bad}");
        }
    }

    #[test]
    fn created_keys_work_until_revoked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path().join("k.db").to_str().expect("utf-8 path")).expect("store");
        let printed = run(&store, KeysCommand::Create { tenant: "guild".into() }).expect("created");
        let secret = printed.lines().nth(1).expect("secret line");
        assert!(secret.starts_with("sk_") && secret.len() == 67, "{secret}");
        let owner = store.key_owner(secret).expect("lookup").expect("active");
        assert_eq!(owner.tenant, "guild");
        assert!(run(&store, KeysCommand::List).expect("list").contains(&owner.key_id));
        run(&store, KeysCommand::Revoke { key_id: owner.key_id.clone() }).expect("revoked");
        assert_eq!(store.key_owner(secret).expect("lookup"), None);
        assert!(run(&store, KeysCommand::Revoke { key_id: owner.key_id }).is_err());
    }
}

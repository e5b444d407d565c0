//! `skirmish keys create|list|revoke`: API key management on the command line. A key's secret
//! is printed once, at creation; only its SHA-256 digest is stored. An operator may also supply
//! one key through the environment or a file ([`provision`]), stored the same way.

use crate::auth::OPEN_TENANT;
use crate::config::ApiKeySettings;
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

/// Shortest and longest key accepted from the operator.
const SUPPLIED_KEY_LEN: std::ops::RangeInclusive<usize> = 32..=255;

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

/// Stores the key given in the settings (`SKIRMISH_API_KEY` or `SKIRMISH_API_KEY_FILE`), if any,
/// as its digest, for `SKIRMISH_API_KEY_TENANT` (default `default`). Starting again with the
/// same key changes nothing; a key that was revoked stays revoked and stops the start.
/// Returns the key's id.
pub fn provision(store: &Store, settings: &ApiKeySettings) -> Result<Option<String>, String> {
    let Some(secret) = supplied_secret(settings)? else { return Ok(None) };
    let tenant = settings.api_key_tenant.as_deref().unwrap_or(OPEN_TENANT);
    if !valid_tenant(tenant) {
        return Err(format!("SKIRMISH_API_KEY_TENANT: '{tenant}' must be 1 to 64 of A-Z a-z 0-9 . _ -"));
    }
    let db = |error: DbError| error.to_string();
    match store.key_by_secret(&secret).map_err(db)? {
        Some(key) if key.revoked_at.is_some() => {
            Err(format!("the supplied API key ({}) was revoked; supply a new one", key.id))
        }
        Some(key) if key.tenant != tenant => Err(format!(
            "the supplied API key ({}) belongs to tenant '{}', not '{tenant}'",
            key.id, key.tenant
        )),
        Some(key) => Ok(Some(key.id)),
        None => {
            let id = format!("key_env_{}", &crate::auth::sha256_hex(secret.as_bytes())[..12]);
            store.create_key(&id, tenant, &secret).map_err(db)?;
            log::info!("stored the supplied API key as {id} for tenant '{tenant}' (its digest only)");
            Ok(Some(id))
        }
    }
}

/// The key from the settings or its file, checked.
fn supplied_secret(settings: &ApiKeySettings) -> Result<Option<String>, String> {
    let secret = match (&settings.api_key, &settings.api_key_file) {
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => return Err("set SKIRMISH_API_KEY or SKIRMISH_API_KEY_FILE, not both".into()),
        (Some(key), None) => key.trim().to_owned(),
        (None, Some(path)) => std::fs::read_to_string(path)
            .map_err(|e| format!("SKIRMISH_API_KEY_FILE: cannot read {}: {e}", path.display()))?
            .trim()
            .to_owned(),
    };
    if !SUPPLIED_KEY_LEN.contains(&secret.len()) || !secret.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(format!(
            "the supplied API key must be {} to {} visible ASCII characters (e.g. `openssl rand -hex 32`)",
            SUPPLIED_KEY_LEN.start(),
            SUPPLIED_KEY_LEN.end()
        ));
    }
    Ok(Some(secret))
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

    #[test]
    fn a_supplied_key_is_checked_and_a_revoked_one_stays_revoked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path().join("k.db").to_str().expect("utf-8 path")).expect("store");
        let file = dir.path().join("key.txt");
        std::fs::write(&file, format!("{}\n", "k".repeat(40))).expect("key file");
        let supplied = |key: Option<&str>, from_file: bool| ApiKeySettings {
            api_key: key.map(str::to_owned),
            api_key_file: from_file.then(|| file.clone()),
            api_key_tenant: None,
        };

        let from_file = provision(&store, &supplied(None, true)).expect("from a file");
        let short = provision(&store, &supplied(Some("too-short"), false));
        let both = provision(&store, &supplied(Some(&"k".repeat(40)), true));
        let none = provision(&store, &supplied(None, false));

        let id = from_file.expect("an id");
        assert!(id.starts_with("key_env_"), "{id}");
        assert_eq!(
            store.key_owner(&"k".repeat(40)).expect("lookup").map(|o| o.tenant),
            Some("default".into())
        );
        assert!(short.expect_err("refused").contains("32 to 255"));
        assert!(both.expect_err("refused").contains("not both"));
        assert_eq!(none, Ok(None));
        store.revoke_key(&id).expect("revoked");
        let revoked = provision(&store, &supplied(None, true));
        assert!(revoked.expect_err("refused").contains("was revoked"));
    }
}

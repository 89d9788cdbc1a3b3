//! duroxide-pg's own migration runner, for checking that duro's runner and duroxide-pg's accept
//! each other's schemas.

use duroxide_pg::PostgresProvider;
use napi_derive::napi;

use crate::errors::js_error;

/// Creates `schema` when missing and applies duroxide-pg 0.1.38's pending migrations to it,
/// exactly as a Rust worker does when it starts.
///
/// @throws with duroxide-pg's error when it refuses the schema (for instance, one that records
///   a migration it does not know) or cannot reach the database.
#[napi]
pub async fn migrate_with_duroxide_pg(database_url: String, schema: String) -> napi::Result<()> {
    let provider = PostgresProvider::new_with_schema(&database_url, Some(&schema))
        .await
        .map_err(|error| js_error(format!("duroxide-pg refused schema {schema}: {error:#}")))?;
    provider.pool().close().await;
    Ok(())
}

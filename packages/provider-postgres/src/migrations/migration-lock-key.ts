const FNV_OFFSET_BASIS = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const NAMESPACE = 'duroxide_pg:migrations:';

/**
 * The key of the session advisory lock that serializes migration runs on one schema: FNV-1a
 * 64-bit over the UTF-8 bytes of `"duroxide_pg:migrations:" + schema`, read as a signed 64-bit
 * integer. It is the key duroxide-pg's runner takes (`advisory_lock_key` in its
 * `src/migrations.rs`), so a Rust process and a duro process starting together wait for each
 * other. The schema name is hashed as given, without case folding, as duroxide-pg does.
 *
 * @returns the key as a decimal string, ready to bind as a `bigint` parameter.
 */
export function migrationLockKey(schema: string): string {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(NAMESPACE + schema)) {
    hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * FNV_PRIME);
  }
  return BigInt.asIntN(64, hash).toString();
}

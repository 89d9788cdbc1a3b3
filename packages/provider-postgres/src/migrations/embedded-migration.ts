/**
 * The two migration tracks: `duroxide` holds the files numbered like duroxide-pg's (ledger
 * `_duroxide_migrations`), `duro` holds duro's own additions (ledger `_duro_migrations`).
 */
export type MigrationTrack = 'duroxide' | 'duro';

/** One SQL migration file, embedded in the package by the migrations module generator. */
export interface EmbeddedMigration {
  /** The number before the first underscore of the file name, e.g. 25. */
  readonly version: number;
  /** The file name, recorded in the ledger as it is, e.g. `0025_fetch_orchestration_lease_at_claim.sql`. */
  readonly name: string;
  /** The file's text, with `{{schema}}` and `{{schema_name}}` placeholders. */
  readonly sql: string;
}

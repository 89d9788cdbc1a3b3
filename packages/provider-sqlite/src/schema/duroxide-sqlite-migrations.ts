/** One schema version of duroxide's SQLite provider. @internal */
export interface DuroxideSqliteMigration {
  /** The sqlx version number, which is also the file name's prefix. */
  readonly version: number;
  /** The description sqlx records: the file name's rest, underscores as spaces. */
  readonly description: string;
  /**
   * SHA-384 of duroxide's own file for this version, which sqlx records as the checksum and
   * compares on every start: with it, a Rust process opening a file this package migrated finds
   * every version applied and runs nothing.
   */
  readonly rustChecksum: string;
}

/**
 * The versions of duroxide 0.1.32's SQLite schema (its `migrations/` folder), in order; our own
 * SQL for each lives in this package's `migrations/` folder under the same file name. A new
 * duroxide version adds one entry here and one file there.
 * @internal
 */
export const DUROXIDE_SQLITE_MIGRATIONS: readonly DuroxideSqliteMigration[] = [
  {
    version: 20240101000000,
    description: 'initial schema',
    rustChecksum:
      'e895b04735fc88843bf88c1fd038a4073c789da7a74be5e1a77edd3ad38a832b158761f5a11410a7cf6ccb49808da9ba',
  },
  {
    version: 20240102000000,
    description: 'add attempt count',
    rustChecksum:
      'a1af64e4a4211fa289189a141ff453f875d6468f72e0680acc54518f006368bda3e877de040b75a9693cffa24c280008',
  },
  {
    version: 20240103000000,
    description: 'add worker visible at',
    rustChecksum:
      '01cfc0a852726929f1f7223fa9cccf1584b34525fb49b6db60210f143ea9923edbf9b407958e01989fc00ee4415f6419',
  },
  {
    version: 20240104000000,
    description: 'add worker activity identity',
    rustChecksum:
      '25fafc591102bd90cf724c5d6f2855113f9118880b7b7fb5dd7210e4086fde7021f55a2ea7141d478363c78504cd123b',
  },
  {
    version: 20240105000000,
    description: 'add parent instance id',
    rustChecksum:
      '621cfad15d7fece832b660b57185bfdb753ad03561c91367897dfdc148e48ebf34ff6578bbcd6d3f139e9505bfa5eea9',
  },
  {
    version: 20240106000000,
    description: 'add pinned version',
    rustChecksum:
      '13f4c421eda183f3e3f1ce807e211727e2bee2149c38efe07f5cc12055b3e75a054900f15287295b51d7f8a29c807c00',
  },
  {
    version: 20240107000000,
    description: 'add sessions',
    rustChecksum:
      'f0ad65793a65a6d56feee893f24975a1b989817cc5de694f66ef7896abd6dd508b7a33f0e6bfc34abd7f95945e0f0ec1',
  },
  {
    version: 20240108000000,
    description: 'add custom status',
    rustChecksum:
      '5a715bcad01ce5a1cafa01ba5ac66ec28e3a9e7388ec99dc239f54c189748ebc4ee2c1f0dda132051839bacd070bfd2b',
  },
  {
    version: 20240109000000,
    description: 'add activity tags',
    rustChecksum:
      '90e079aa69023acf1f4f08f5cdfcfc20ad2dd08573486eb10259c6bd8543b09b65cc8a05b1bcdd170cac73715cc56384',
  },
  {
    version: 20240110000000,
    description: 'add kv store',
    rustChecksum:
      'b02718981675751d3e7fe23714483c837df6b44ffc7c7ec83abc3f7563adf3dca8427569ba0f07e7027ba16e82276985',
  },
  {
    version: 20240111000000,
    description: 'add kv last updated',
    rustChecksum:
      '3f003c0cf9ea6f0fd8eae9e8764aee547b1368d77b6fe88cf5cd63a8e1e3e00264b55c1f7de23108018585c1f53c4390',
  },
  {
    version: 20240112000000,
    description: 'add kv delta',
    rustChecksum:
      'fa25f50c9660870e43ccfe64e019fec5ab5fc92a608378a249cbc614cfc8499b00bb940fcbb31dff96850fe6c0fda9b4',
  },
];

/** The file holding our SQL for `migration`, named as duroxide names its own. @internal */
export function migrationFileName(migration: DuroxideSqliteMigration): string {
  return `${migration.version}_${migration.description.replaceAll(' ', '_')}.sql`;
}

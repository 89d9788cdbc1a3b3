declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the run's PostgreSQL database, provided by `@duro/test-postgres/global-setup`. */
    duroDatabaseUrl: string;
    /** The route that produced it. */
    duroDatabaseRoute: string;
  }
}

export {};

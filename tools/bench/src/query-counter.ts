import pg from 'pg';

/**
 * Counts the queries every `pg` client in this process sends (the provider's pool and its
 * LISTEN connection included), by wrapping `pg.Client#query` from the moment it is created.
 */
export class QueryCounter {
  private static installed: QueryCounter | null = null;
  private count = 0;

  private constructor() {}

  /** The process's counter, installed on first use. */
  static install(): QueryCounter {
    if (QueryCounter.installed !== null) return QueryCounter.installed;
    const counter = new QueryCounter();
    const original = Reflect.get(pg.Client.prototype, 'query') as (
      this: pg.Client,
      ...args: unknown[]
    ) => unknown;
    pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
      counter.count++;
      return original.apply(this, args);
    } as typeof pg.Client.prototype.query;
    QueryCounter.installed = counter;
    return counter;
  }

  /** Queries sent since the counter was installed. */
  get queries(): number {
    return this.count;
  }
}

import pg from 'pg';

/**
 * Counts the queries every `pg` client in this process sends (the provider's pool and its
 * LISTEN connection included), by wrapping `pg.Client#query` from the moment it is created.
 * Each query is also counted under a label: the procedure its text calls in a quoted schema, else
 * the table it reads there, else its first word.
 */
export class QueryCounter {
  private static installed: QueryCounter | null = null;
  private count = 0;
  private readonly byLabel = new Map<string, number>();

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
      counter.note(args[0]);
      return original.apply(this, args);
    } as typeof pg.Client.prototype.query;
    QueryCounter.installed = counter;
    return counter;
  }

  /** Queries sent since the counter was installed. */
  get queries(): number {
    return this.count;
  }

  /** Queries sent since the counter was installed, per label. */
  labelled(): Map<string, number> {
    return new Map(this.byLabel);
  }

  private note(query: unknown): void {
    this.count++;
    const label = queryLabel(query);
    this.byLabel.set(label, (this.byLabel.get(label) ?? 0) + 1);
  }
}

/** A short name for what `query` (a text or a `pg.QueryConfig`) does. */
export function queryLabel(query: unknown): string {
  const config = typeof query === 'string' ? { text: query } : (query as pg.QueryConfig | null);
  const text = typeof config?.text === 'string' ? config.text : '';
  const called = /"[^"]+"\.(\w+)\s*\(/.exec(text);
  if (called?.[1] !== undefined) return called[1];
  const table = /\bFROM\s+"[^"]+"\.(\w+)/i.exec(text);
  if (table?.[1] !== undefined) return `read ${table[1]}`;
  return (/^\s*(\w+)/.exec(text)?.[1] ?? 'unknown').toUpperCase();
}

/** The difference of two {@link QueryCounter.labelled} readings, divided by `per`. */
export function labelledRates(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  per: number,
): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const [label, count] of [...after].sort((a, b) => b[1] - a[1])) {
    const delta = count - (before.get(label) ?? 0);
    if (delta > 0) rates[label] = delta / per;
  }
  return rates;
}

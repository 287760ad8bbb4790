// Declarations of /client/rowserver.js, rowserver's browser client of lists.

/** A row as a list page and its stream carry it. */
export interface Row {
  id: string;
  title?: string;
  subtitle?: string | null;
  trailing?: string | null;
  image?: string | null;
  detail: string;
  [key: string]: unknown;
}

/** One change of a list's feed: an upsert names the row it now follows (null: first). */
export type Change =
  | { op: "upsert"; id: string; after: string | null; row: Row; section?: { id: string; header: string; detail: string | null }; cells?: Record<string, unknown>; compact?: Record<string, unknown> }
  | { op: "delete"; id: string };

export interface Total {
  value: number;
  exact: boolean;
}

/**
 * Applies one read of a list's feed to `entries` (in list order). `complete`: the entries are the
 * whole list. Answers the new entries, and whether every upsert found its place.
 */
export function applyChanges<Entry extends { id: string }>(
  entries: Entry[],
  changes: Change[],
  options?: { complete?: boolean; entryOf?: (change: Extract<Change, { op: "upsert" }>) => Entry },
): { entries: Entry[]; placed: boolean };

/** A list read page by page and kept current by its stream; events: `change`, `error`. */
export class LiveList extends EventTarget {
  constructor(link: string, options?: { fetch?: typeof fetch });
  readonly link: string;
  rows: Row[];
  total: Total | null;
  next: string | null;
  state: "closed" | "connecting" | "live";
  open(): Promise<void>;
  loadMore(): Promise<boolean>;
  close(): void;
}

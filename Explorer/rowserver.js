// rowserver.js: a small browser client of rowserver's lists, served by the server itself at
// /client/rowserver.js as an ES module (no build step; declarations in rowserver.d.ts).
//
//   import { LiveList } from "/client/rowserver.js";
//   const list = new LiveList("/v1/products?sort=-price");
//   list.addEventListener("change", () => render(list.rows));
//   await list.open();
//
// A LiveList shows a list as the server has it and keeps it so: it opens the list's stream
// (`links.stream`, server-sent events) before it reads the first page, so no change between the
// two is missed, then applies each event's changes by id and placement (`after`: the row each
// upsert now follows), with no page read. EventSource reconnects by itself and resumes after the
// last event it had (Last-Event-ID); a stream too old for the server's change log (`expired`)
// makes the list read its pages again.

/// Applies one read of a list's feed (`changes`, in commit order) to `entries` (objects with an
/// `id`, in list order): every changed row leaves, then each upsert goes in after the row it
/// names. The upserts of one read are placed in the list as it is after all of them, so one whose
/// `after` is placed later in the same read waits for it. `complete`: `entries` is the whole list
/// (no page left to read); otherwise an upsert after a row not shown belongs further down and is
/// left out. `entryOf(change)` makes the entry of an upsert. Answers the new entries, and whether
/// every upsert found its place (false: read the list again).
export function applyChanges(entries, changes, { complete = true, entryOf = (change) => change.row } = {}) {
  const latest = new Map();
  for (const change of changes) {
    latest.delete(change.id);
    latest.set(change.id, change);
  }
  const result = entries.filter((entry) => !latest.has(entry.id));
  let waiting = [...latest.values()].filter((change) => change.op === "upsert");
  while (waiting.length > 0) {
    const index = waiting.findIndex((change) => change.after === null || result.some((entry) => entry.id === change.after));
    if (index < 0) break;
    const [change] = waiting.splice(index, 1);
    const at = change.after === null ? 0 : result.findIndex((entry) => entry.id === change.after) + 1;
    result.splice(at, 0, entryOf(change));
  }
  // What is left follows rows not shown: further down a list read in part, lost in a whole one.
  return { entries: result, placed: complete ? waiting.length === 0 : true };
}

/// A list read page by page and kept current by its stream. Events: `change` (the rows, the
/// total or the state changed), `error` (detail: the Error).
export class LiveList extends EventTarget {
  /// `link`: a list link the server gave (a collection's `links.list`, a sort or search link).
  /// `fetch`: what reads pages (a function like `globalThis.fetch`, e.g. one adding a key).
  constructor(link, { fetch = globalThis.fetch.bind(globalThis) } = {}) {
    super();
    this.link = link;
    this.fetch = fetch;
    /// The rows shown, in list order.
    this.rows = [];
    /// `{value, exact}` when the server counts the list; null otherwise.
    this.total = null;
    /// The next page's link; null once every row is read.
    this.next = null;
    /// "closed", "connecting" or "live".
    this.state = "closed";
    this.source = null;
    this.pending = null;
    this.referencesVersion = null;
  }

  /// Reads the first page and starts the stream.
  async open() {
    this.close();
    this.state = "connecting";
    const first = await this.readPage(this.link);
    this.pending = [];
    this.startStream(first.links.stream);
    await new Promise((resolve) => {
      const opened = () => resolve();
      this.source.addEventListener("open", opened, { once: true });
      this.source.addEventListener("error", opened, { once: true });
    });
    // Read again now that the stream is open: a change between the first read and the stream
    // is in this page, and a change after it comes on the stream.
    const page = await this.readPage(this.link);
    this.rows = page.rows;
    this.next = page.links.next;
    this.total = page.total ?? null;
    const waiting = this.pending;
    this.pending = null;
    for (const event of waiting) this.apply(event);
    this.emit();
  }

  /// Reads the next page after the rows shown; false when there is none.
  async loadMore() {
    if (!this.next) return false;
    const page = await this.readPage(this.next);
    const known = new Set(this.rows.map((row) => row.id));
    this.rows.push(...page.rows.filter((row) => !known.has(row.id)));
    this.next = page.links.next;
    this.emit();
    return true;
  }

  close() {
    if (this.source) this.source.close();
    this.source = null;
    this.state = "closed";
  }

  startStream(link) {
    const source = new EventSource(link);
    this.source = source;
    source.addEventListener("open", () => {
      this.state = "live";
      this.emit();
    });
    source.addEventListener("error", () => {
      // EventSource tries again by itself (after the server's `retry`), unless it gave up.
      this.state = source.readyState === EventSource.CLOSED ? "closed" : "connecting";
      this.emit();
    });
    source.addEventListener("changes", (event) => {
      const data = JSON.parse(event.data);
      if (this.pending) this.pending.push(data);
      else {
        this.apply(data);
        this.emit();
      }
    });
    source.addEventListener("expired", () => this.open().catch((error) => this.fail(error)));
    source.addEventListener("revoked", () => {
      this.close();
      this.fail(new Error("The API key of this stream was revoked."));
    });
  }

  apply(data) {
    // A new referencesVersion: an item the rows show through a reference changed, which no
    // change of the list says; the rows are read again.
    const referencesMoved = this.referencesVersion && data.referencesVersion !== this.referencesVersion;
    this.referencesVersion = data.referencesVersion;
    const { entries, placed } = applyChanges(this.rows, data.changes, { complete: !this.next });
    this.rows = entries;
    if (data.total) this.total = data.total;
    if (!placed || referencesMoved) this.open().catch((error) => this.fail(error));
  }

  async readPage(link) {
    const response = await this.fetch(link, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`${link}: ${response.status}`);
    const body = await response.json();
    const rows = body.rows ?? (body.sections ?? []).flatMap((section) => section.rows);
    return { rows, links: body.links, total: body.total };
  }

  emit() {
    this.dispatchEvent(new Event("change"));
  }

  fail(error) {
    this.dispatchEvent(new CustomEvent("error", { detail: error }));
  }
}

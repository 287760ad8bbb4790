// Keeping the shown list current from its stream (`links.stream`: the change feed as
// server-sent events), with no page read: each event's changes go in by id and by the place the
// server gives them (applyChanges of the client module). While a list is live the periodic
// refresh (refresh.js) leaves it alone; when the stream cannot be had (an API key is set, which
// the browser's EventSource cannot send; an old server) or breaks, the refresh keeps the list
// current as before.

import { applyChanges } from "/client/rowserver.js";

export class LiveStream {
  constructor() {
    this.source = null;
  }

  /// Follows `link` for one list: `onState(live)` when the stream opens or breaks,
  /// `onChanges(data)` for each event's data, `onLost()` when the server says the stream's place
  /// is gone (expired, or its key revoked).
  follow(link, { onState, onChanges, onLost }) {
    this.stop();
    if (!link || typeof EventSource === "undefined") return onState(false);
    const source = new EventSource(link);
    this.source = source;
    const current = () => this.source === source;
    source.addEventListener("open", () => current() && onState(true));
    source.addEventListener("error", () => current() && onState(false));
    source.addEventListener("changes", (event) => current() && onChanges(JSON.parse(event.data)));
    for (const name of ["expired", "revoked"]) {
      source.addEventListener(name, () => {
        if (!current()) return;
        this.stop();
        onState(false);
        onLost();
      });
    }
  }

  stop() {
    if (this.source) this.source.close();
    this.source = null;
  }
}

/// The entries of `view` after one event: `complete` when every page of the list is shown.
/// Answers whether every upsert found its place (false: read the list again).
export function applyLive(view, data, { complete }) {
  const sections = new Map(view.entries.filter((entry) => entry.section).map((entry) => [entry.section.id, entry.section]));
  const entryOf = (change) =>
    view.mode === "table"
      ? { id: change.id, detail: change.row.detail, table: { id: change.id, cells: change.cells, compact: change.compact, detail: change.row.detail }, section: null }
      : { id: change.id, detail: change.row.detail, row: change.row, section: change.section ? { ...sections.get(change.section.id), ...change.section } : null };
  const { entries, placed } = applyChanges(view.entries, data.changes, { complete, entryOf });
  view.setEntries(entries);
  return placed;
}

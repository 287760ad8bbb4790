// Keeping the shown list current without reloading it.
//
// Each refresh (the button, or every 5 s while the page is visible):
// 1. reads the change feed from the last token (`links.changes` of the index gives the first
//    token; each answer's `links.next` the following one);
// 2. revalidates the first page with If-None-Match: a 304 keeps the list as it is, a 200 puts
//    every row of the new first page where the server has it (inserting new ones);
// 3. applies the feed by id: a delete removes the row; an upsert of a shown row replaces its
//    text in place (it keeps its position even if its sort key changed); an upsert of a row not
//    shown, that step 2 did not place, goes to the top of a plain unsearched list.
// What cannot be placed that way (an unknown row in a table, in sections or in search results,
// an edited table row whose cells the feed's render row does not carry, an expired token) makes
// the list reload: the first page and as many following pages as were shown, drawn in one go so
// the selection and the scroll position stay.

import { APIError, getJSON, keyCodes } from "./api.js";
import { entriesOf } from "./listview.js";

const maxFeedPages = 20;

export class Refresher {
  /// `currentList()`: the app's list state `{view, ready, firstLink, etag, next, search, feed}`;
  /// it is read at each refresh, since the user may switch lists meanwhile. `onUpdated(list)`
  /// draws it.
  constructor(currentList, onUpdated) {
    this.currentList = currentList;
    this.onUpdated = onUpdated;
    this.running = null;
  }

  /// Asks the feed for a token meaning "now", before the first page is loaded, so no change
  /// between the two is missed.
  static async startFeed(changesLink) {
    const { body } = await getJSON(changesLink);
    return { next: body.links.next };
  }

  /// One refresh; concurrent calls share it.
  refresh() {
    if (!this.running) this.running = this.run().finally(() => (this.running = null));
    return this.running;
  }

  async run() {
    const list = this.currentList();
    if (!list || !list.ready) return;
    let reload = false;
    const changes = [];
    if (list.changes && !list.feed) {
      // The feed could not be started when the list loaded: what changed since is unknown.
      list.feed = await Refresher.startFeed(list.changes);
      reload = true;
    } else if (list.feed) {
      try {
        changes.push(...(await this.readFeed(list.feed)));
      } catch (error) {
        // A token the server no longer accepts: start a new one and reload what is shown. A
        // refused key is not the token's fault: a new token would be refused the same way.
        if (!(error instanceof APIError) || error.status < 400 || error.status >= 500 || keyCodes.has(error.code)) throw error;
        list.feed = await Refresher.startFeed(list.changes);
        reload = true;
      }
    }
    const first = await getJSON(list.firstLink, { etag: list.etag });
    if (list !== this.currentList()) return;
    const view = list.view;
    let placed = new Set();
    if (!first.notModified) {
      list.etag = first.etag;
      list.empty = first.body.empty;
      list.total = first.body.total;
      placed = view.reconcileFirstPage(entriesOf(first.body));
    }
    for (const change of latestByID(changes)) {
      if (change.op === "delete") {
        view.remove(change.id);
      } else if (placed.has(change.id)) {
        continue;
      } else if (view.indexOf(change.id) >= 0) {
        if (view.mode === "table") reload = true;
        else view.update(change.id, change.row);
      } else if (view.mode === "rows" && !list.search) {
        view.insertAtTop(change.row);
      } else {
        reload = true;
      }
    }
    if (reload) await this.reload(list);
    if (list !== this.currentList()) return;
    this.onUpdated(list);
  }

  /// Every change since the last token, following `more` until the feed is drained.
  async readFeed(feed) {
    const changes = [];
    for (let page = 0; page < maxFeedPages; page += 1) {
      const { body } = await getJSON(feed.next);
      changes.push(...body.changes);
      feed.next = body.links.next;
      if (!body.more) break;
    }
    return changes;
  }

  /// The first page and as many more as needed to show at least as many rows as before.
  async reload(list) {
    const wanted = list.view.entries.length;
    const entries = [];
    let link = list.firstLink;
    let next = null;
    for (let page = 0; link && page < 50; page += 1) {
      const { body, etag } = await getJSON(link);
      if (page === 0) {
        list.etag = etag;
        list.empty = body.empty;
      }
      entries.push(...entriesOf(body));
      next = body.links.next;
      if (!next || entries.length >= wanted) break;
      link = next;
    }
    if (list !== this.currentList()) return;
    list.view.replaceAll(entries);
    list.next = next;
  }
}

/// One change per id, the last one, in the order they were last changed.
function latestByID(changes) {
  const latest = new Map();
  for (const change of changes) {
    latest.delete(change.id);
    latest.set(change.id, change);
  }
  return latest.values();
}

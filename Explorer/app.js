// The rowserver explorer: collections in the sidebar (from GET /v1), the chosen list in the
// middle, the opened row's detail on the right — the staff directory's split view.
//
// The page starts from one URL it knows, /v1, and from there only follows links the server
// handed out: the index's list/sections/table/changes links, each page's links.next, each
// row's detail link, each column's sort links, each detail's links. The search field is the
// one place it adds something (`q`, see api.js).
//
// It reads without an API key; a key entered in the sidebar (keydialog.js) goes with every
// request, and setting or clearing it reads what is shown again.

import { getJSON, postJSON, searchOf, withCount, withSearch } from "./api.js";
import { DetailView } from "./detail.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { clearKey, currentKey, keyEvents, keyRejection } from "./key.js";
import { KeyDialog } from "./keydialog.js";
import { ListView, entriesOf, modeOf } from "./listview.js";
import { LiveStream, applyLive } from "./live.js";
import { problemView } from "./problem.js";
import { Refresher } from "./refresh.js";

const pollSeconds = 5;
const searchDelay = 250;

const $ = (id) => document.getElementById(id);
const ui = {
  collections: $("collections"),
  connection: $("connection"),
  title: $("list-title"),
  back: $("back"),
  modes: $("modes"),
  refresh: $("refresh"),
  search: $("search"),
  searchLabel: $("search-label"),
  problem: $("list-problem"),
  selection: $("selection-bar"),
  selectionCount: $("selection-count"),
  selectionActions: $("selection-actions"),
  scroller: $("list-scroll"),
  empty: $("empty"),
  sentinel: $("sentinel"),
  status: $("list-status"),
  total: $("list-total"),
  letters: $("letters"),
  detailBack: $("detail-back"),
};

const state = {
  collections: [],
  collection: null, // the index entry chosen in the sidebar
  collectionList: null, // its list, to come back to from a list a detail led to
  list: null, // what the middle column shows; see openList
};

const view = new ListView($("list"), ui.scroller, {
  onOpen: (entry) => detail.open(entry.detail, entry.row?.title ?? entry.table?.compact?.title ?? null),
  onSort: (link) => openList({ ...state.list, base: link, search: searchOf(link) }),
  onCheck: (ids) => showSelection(ids),
  onExpand: (entry) => loadChildren(entry),
});

const detail = new DetailView($("detail"), {
  onOpenList: (link, title) => openList({ title, base: link, kind: "sublist" }),
  onShow: () => document.body.classList.add("detail-open"),
  onDeleted: () => refresh(),
});

const refresher = new Refresher(() => state.list, draw);
const live = new LiveStream();

/// The list's stream from the feed token taken before its first page was read (a token is the
/// collection's, whatever the list), so no change between the two is missed: one already on the
/// page comes again and goes in at the same place.
function streamFrom(link, feed) {
  const since = feed?.next && new URL(feed.next, location.href).searchParams.get("since");
  if (!link || !since) return link;
  const url = new URL(link, location.href);
  url.searchParams.set("since", since);
  return url.pathname + url.search;
}

/// Keeps `list` current from its stream while it is shown (not an outline: its rows open onto
/// children the stream of the roots does not carry). `document.body.dataset.live` says whether
/// it is live.
function follow(list, link) {
  const setLive = (value) => {
    if (list !== state.list) return;
    list.live = value;
    document.body.dataset.live = String(value);
  };
  // EventSource sends no headers: with an API key set, the list is polled with it instead.
  live.follow(list.outline || currentKey() ? null : link, {
    onState: setLive,
    onChanges: (data) => {
      if (list !== state.list || !list.ready) return;
      if (data.total) list.total = data.total;
      // An item the rows show through a reference changed (a department renamed): the stream
      // says so by a new referencesVersion, and the rows showing it are read again.
      const referencesMoved = list.referencesVersion && data.referencesVersion !== list.referencesVersion;
      list.referencesVersion = data.referencesVersion;
      if (!referencesMoved && applyLive(list.view, data, { complete: !list.next })) return draw(list);
      refresher.reload(list).then(() => list === state.list && draw(list));
    },
    onLost: () => refresh({ force: true }),
  });
}

new KeyDialog({
  button: $("key-button"),
  label: $("key-label"),
  dialog: $("key-dialog"),
  input: $("key-input"),
  status: $("key-status"),
  save: $("key-save"),
  clear: $("key-clear"),
  cancel: $("key-cancel"),
});

// Another key (or none) may read differently: a key-only collection opens or closes, a
// refused key stops being sent. What is shown is read again, as new; the index too when it
// could not be read.
keyEvents.addEventListener("change", () => {
  showConnection(null);
  if (!state.collections.length) return void boot();
  if (state.list) openList({ ...state.list, feed: null });
  detail.reopen();
});
keyEvents.addEventListener("rejected", () => showKeyRefused());

// MARK: - Collections

async function boot() {
  showProblem(null);
  ui.status.textContent = "Loading…";
  try {
    const { body } = await getJSON("/v1");
    state.collections = body.collections;
    drawSidebar();
    if (state.collections.length) selectCollection(state.collections[0]);
    else ui.status.textContent = "This server has no collections.";
  } catch (error) {
    ui.status.textContent = "";
    showProblem(error, boot);
  }
}

function drawSidebar() {
  ui.collections.replaceChildren(
    ...state.collections.map((collection) =>
      h(
        "li",
        {},
        h(
          "button",
          { type: "button", class: "collection", dataset: { collection: collection.id }, onclick: () => selectCollection(collection) },
          collection.title,
        ),
      ),
    ),
  );
}

/// An outline row's children: every page of its `children` link (at most 20), as entries.
async function loadChildren(entry) {
  const entries = [];
  let link = entry.row.children;
  for (let page = 0; link && page < 20; page += 1) {
    const { body } = await getJSON(link);
    entries.push(...entriesOf(body));
    link = body.links.next;
  }
  return entries;
}

function selectCollection(collection, mode = "list") {
  state.collection = collection;
  for (const button of ui.collections.querySelectorAll("button")) {
    if (button.dataset.collection === collection.id) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  ui.search.value = "";
  // An outline's list starts at its roots, each opening onto its children; its feed is the
  // roots' own (the first page links it). Sections and tables show every node.
  const roots = mode === "list" ? collection.links.roots : undefined;
  openList({
    title: collection.title,
    base: roots || collection.links[mode],
    kind: "collection",
    mode,
    changes: roots ? null : collection.links.changes,
    outline: Boolean(roots),
  });
}

// MARK: - Lists

/// Shows a list: `base` is a link from the server (a collection's list, sections or table
/// link, a column's sort link, a detail's list link); `search` becomes its `q`. Another view
/// of the same collection passes on its `feed`; without one a collection starts a new one.
async function openList({ title, base, kind, mode = null, search = "", changes = null, feed = null, outline = false }) {
  const list = { title, base, kind, mode, search, changes, feed, outline, view, ready: false };
  list.firstLink = withCount(withSearch(base, search));
  state.list = list;
  live.stop();
  document.body.dataset.live = "false";
  if (kind === "collection") state.collectionList = list;
  drawToolbar(list);
  ui.scroller.setAttribute("aria-busy", "true");
  if (changes && !list.feed) {
    // Without a token the list still loads; refreshes then revalidate the first page only.
    list.feed = await Refresher.startFeed(changes).catch(() => null);
  }
  await loadFirst(list);
}

async function loadFirst(list) {
  showProblem(null);
  ui.status.textContent = "Loading…";
  ui.scroller.setAttribute("aria-busy", "true");
  try {
    const { body, etag } = await getJSON(list.firstLink);
    if (list !== state.list) return;
    list.mode = list.mode || modeOf(body);
    // A collection's own rows can be ticked and deleted together, where the index gives the
    // link that writes several at once (a collection kept read-only has none).
    const checkable = list.kind === "collection" && Boolean(state.collection?.links.batch);
    view.reset({ mode: modeOf(body), label: list.title, columns: body.columns, sort: body.sort, checkable });
    view.append(entriesOf(body));
    Object.assign(list, { etag, next: body.links.next, empty: body.empty, total: body.total, ready: true });
    drawLetters(list, body.links.index);
    follow(list, streamFrom(body.links.stream, list.feed));
    // An outline's roots: the next refresh starts their feed from the link the page gives.
    if (list.outline && !list.changes) list.changes = body.links.changes;
    draw(list);
  } catch (error) {
    if (list !== state.list) return;
    view.reset({ mode: "rows", label: list.title });
    ui.empty.hidden = true;
    ui.status.textContent = "";
    showProblem(error, () => openList(list));
  } finally {
    if (list === state.list) ui.scroller.removeAttribute("aria-busy");
  }
}

let loadingMore = false;

/// Infinite scroll: the next page is the current one's links.next.
async function loadMore() {
  const list = state.list;
  if (!list || !list.next || loadingMore) return;
  loadingMore = true;
  ui.status.textContent = "Loading more…";
  try {
    const { body } = await getJSON(list.next);
    if (list !== state.list) return;
    view.append(entriesOf(body));
    list.next = body.links.next;
    draw(list);
  } catch (error) {
    if (list !== state.list) return;
    ui.status.replaceChildren(problemView(error, loadMore));
  } finally {
    loadingMore = false;
  }
}

/// Draws the list, its empty state (ContentUnavailableView: the API's title, description and
/// image) and the line under it, then lets the observer look at the end of the list again.
function draw(list) {
  if (list !== state.list) return;
  document.body.classList.toggle("table-mode", view.mode === "table");
  view.render();
  const empty = view.entries.length === 0 ? list.empty : null;
  ui.empty.hidden = !empty;
  if (empty) {
    ui.empty.replaceChildren(
      icon(empty.image, "icon unavailable-icon"),
      h("p", { class: "unavailable-title" }, empty.title),
      h("p", { class: "unavailable-description" }, empty.description),
    );
  }
  drawTotal(list);
  const count = view.entries.length;
  ui.status.textContent = count === 0 ? "" : list.next ? `${count} shown` : `${count} ${count === 1 ? "item" : "items"}`;
  observer.unobserve(ui.sentinel);
  observer.observe(ui.sentinel);
}

const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && loadMore(), {
  root: ui.scroller,
  rootMargin: "0px 0px 300px 0px",
});

const numbers = new Intl.NumberFormat("en-US");

/// Above the list: how many rows the whole list holds ("About" when the server estimated).
function drawTotal(list) {
  const total = list.total;
  ui.total.hidden = !total;
  if (!total) return;
  const rows = `${numbers.format(total.value)} ${total.value === 1 ? "item" : "items"}`;
  ui.total.textContent = total.exact ? rows : `About ${rows}`;
}

/// The letter strip of a list in text order (its `links.index`): each letter opens the list at it.
async function drawLetters(list, link) {
  ui.letters.hidden = true;
  ui.letters.replaceChildren();
  if (!link) return;
  try {
    const { body } = await getJSON(link);
    if (list !== state.list) return;
    ui.letters.replaceChildren(
      ...body.letters.map((letter) =>
        h(
          "button",
          {
            type: "button",
            class: "letter",
            title: `${numbers.format(letter.count.value)}${letter.count.exact ? "" : "+"} from ${letter.letter}`,
            dataset: { letter: letter.letter },
            onclick: () => openList({ ...list, base: letter.link, search: "", feed: list.feed }),
          },
          letter.letter,
        ),
      ),
    );
    ui.letters.hidden = body.letters.length === 0;
  } catch {
    // The strip is a shortcut: the list works without it.
  }
}

function drawToolbar(list) {
  ui.title.textContent = list.title;
  ui.searchLabel.textContent = `Search ${list.title}`;
  ui.search.placeholder = `Search ${list.title}`;
  ui.search.value = list.search;
  ui.back.hidden = list.kind !== "sublist";
  ui.detailBack.lastElementChild.textContent = list.title;
  if (state.collection) ui.back.lastElementChild.textContent = state.collection.title;
  const collection = state.collection;
  const modes = [["list", "List", true]];
  if (list.kind === "collection") {
    modes.push(["sections", "Sections", collection.sections], ["table", "Table", collection.table]);
  }
  ui.modes.hidden = list.kind !== "collection" || modes.filter((mode) => mode[2]).length < 2;
  ui.modes.replaceChildren(
    ...modes
      .filter(([, , offered]) => offered)
      .map(([mode, label]) =>
        h(
          "button",
          { type: "button", class: "mode", "aria-pressed": String(list.mode === mode), dataset: { mode }, onclick: () => switchMode(mode) },
          label,
        ),
      ),
  );
}

function switchMode(mode) {
  const collection = state.collection;
  openList({ ...state.collectionList, base: collection.links[mode], mode, search: ui.search.value.trim() });
}

// MARK: - Ticked rows

/// The bar over a list with ticked rows: how many, and what can be done with them; above the
/// buttons, what the last try said.
function showSelection(ids, problem = null) {
  ui.selection.hidden = ids.length === 0;
  ui.selectionCount.textContent = `${ids.length} selected`;
  ui.selectionActions.replaceChildren(
    ...(problem ? [problemView(problem)] : []),
    h("button", { type: "button", class: "delete-button", dataset: { action: "delete-selected" }, onclick: () => confirmDeleteSelected(ids) }, "Delete Selected…"),
    h("button", { type: "button", class: "link-button", dataset: { action: "clear-selection" }, onclick: () => view.setChecked([]) }, "Clear"),
  );
}

/// Asks in place, as a single delete does.
function confirmDeleteSelected(ids) {
  const cancel = h("button", { type: "button", class: "link-button", dataset: { action: "cancel-delete-selected" }, onclick: () => showSelection(ids) }, "Cancel");
  const count = ids.length === 1 ? "1 item" : `${ids.length} items`;
  ui.selectionActions.replaceChildren(
    h(
      "div",
      { class: "confirm", role: "group", "aria-label": "Confirm delete" },
      h("p", { class: "confirm-text" }, `Delete ${count}? This cannot be undone.`),
      h("button", { type: "button", class: "delete-button", dataset: { action: "confirm-delete-selected" }, onclick: () => deleteSelected(ids) }, "Delete"),
      cancel,
    ),
  );
  cancel.focus();
}

/// One atomic batch (the collection's `links.batch`): every ticked row goes, or — one of them
/// is still referred to, or the key may not write — none does, and the server's problem says
/// which and why while the rows stay ticked.
async function deleteSelected(ids) {
  const list = state.list;
  const link = state.collection?.links.batch;
  if (!link) return;
  ui.selection.setAttribute("aria-busy", "true");
  try {
    await postJSON(link, { atomic: true, operations: ids.map((id) => ({ op: "delete", id })) });
    if (list !== state.list) return;
    for (const id of ids) view.remove(id);
    view.setChecked([]);
    draw(list);
    refresh();
  } catch (error) {
    if (list === state.list) showSelection(ids, error);
  } finally {
    ui.selection.removeAttribute("aria-busy");
  }
}

// MARK: - Search, refresh, navigation

let searchTimer = null;
ui.search.addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    const search = ui.search.value.trim();
    if (state.list && search !== state.list.search) openList({ ...state.list, search });
  }, searchDelay);
});
// The field is not in a form (the CSP allows no form action); Enter searches at once.
ui.search.addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    clearTimeout(searchTimer);
    const search = ui.search.value.trim();
    if (state.list && search !== state.list.search) openList({ ...state.list, search });
  } else if (event.key === "ArrowDown") {
    event.preventDefault();
    view.focusable.focus();
  }
});

/// `force`: the user asked (the button), so the list is read even while it is live.
async function refresh({ force = false } = {}) {
  // A refused key stays refused: asking again every few seconds only repeats the 401 until
  // the key is cleared or replaced (which reloads anyway).
  if (keyRejection()) return showKeyRefused();
  try {
    // A live list is current already: the timer leaves it alone.
    await Promise.all([state.list?.live && !force ? null : refresher.refresh(), detail.revalidate()]);
    showConnection(null);
  } catch (error) {
    // The list stays as it is; the next poll tries again.
    if (keyRejection()) showKeyRefused();
    else showConnection(`${error.title || "Refresh failed"}. Retrying…`);
  }
}

function showKeyRefused() {
  showConnection("The API key is not accepted.", { label: "Clear Key", onclick: clearKey });
}

/// The line under the collections: why the list may be out of date, with what helps, if anything.
function showConnection(text, action = null) {
  ui.connection.replaceChildren(
    ...(text ? [text] : []),
    ...(action ? [" ", h("button", { type: "button", class: "link-button inline", onclick: action.onclick }, action.label)] : []),
  );
  ui.connection.classList.toggle("offline", Boolean(text));
}

ui.refresh.addEventListener("click", () => refresh({ force: true }));
setInterval(() => document.visibilityState === "visible" && refresh(), pollSeconds * 1000);
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && refresh());

ui.back.addEventListener("click", () => {
  const list = state.collectionList;
  openList({ ...list, feed: null });
});
ui.detailBack.addEventListener("click", () => {
  document.body.classList.remove("detail-open");
  view.focusable.focus();
});

function showProblem(error, retry = null) {
  ui.problem.hidden = !error;
  ui.problem.replaceChildren(...(error ? [problemView(error, retry)] : []));
}

boot();

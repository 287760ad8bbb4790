// The middle column: one ordered list of entries keyed by the server's stable ids, drawn as
// plain rows, as rows in sections, or as a table. Every change (a new page, a refresh, a
// change-feed event) edits the entries by id and redraws, reusing the element of every row
// that did not change, so the selection and the scroll position survive.
//
// An outline's rows (those with a `children` link) show a disclosure: opening it loads the
// row's children below it, one level deeper (OutlineGroup); closing it takes them away again.

import { h } from "./dom.js";
import { icon } from "./icons.js";
import { tableHead, tableRow } from "./table.js";

/// The entries of one page of any shape: `{id, detail, row | cells, section}`, where `row` is a
/// render row, `table` a table row, and `section` the `{id, header, detail}` the row is under.
export function entriesOf(body) {
  if (body.columns) return body.rows.map((row) => ({ id: row.id, detail: row.detail, table: row, section: null }));
  if (body.sections) {
    return body.sections.flatMap((section) => {
      const { id, header, detail, count } = section;
      return section.rows.map((row) => ({ id: row.id, detail: row.detail, row, section: { id, header, detail, count } }));
    });
  }
  return body.rows.map((row) => ({ id: row.id, detail: row.detail, row, section: null }));
}

/// "table", "sections" or "rows": what a page's body holds.
export function modeOf(body) {
  return body.columns ? "table" : body.sections ? "sections" : "rows";
}

function sameEntry(a, b) {
  return JSON.stringify([a.row, a.table, a.section]) === JSON.stringify([b.row, b.table, b.section]);
}

export class ListView {
  /// `host`: where the list or table goes; `scroller`: the element that scrolls it.
  /// `onOpen(entry)`: a row was chosen (click or Enter). `onSort(link)`: a column header was.
  /// `onCheck(ids)`: the rows ticked for an action on several (see `checkable`) changed.
  /// `onExpand(entry)`: an outline row's disclosure was opened; it answers the child entries.
  constructor(host, scroller, { onOpen, onSort, onCheck = () => {}, onExpand }) {
    this.host = host;
    this.scroller = scroller;
    this.onOpen = onOpen;
    this.onSort = onSort;
    this.onCheck = onCheck;
    this.checked = new Set(); // ids of the rows ticked, kept across redraws
    this.onExpand = onExpand;
    this.expanded = new Set(); // ids of outline rows whose children are shown
    this.entries = [];
    this.elements = new Map(); // id → element, reused while its entry object is the same
    this.drawn = new Map(); // id → the entry object its element shows
    this.selectedID = null;
    this.openedID = null;
    this.reset({ mode: "rows", label: "" });
  }

  /// Starts over with a new list (another collection, mode, search or sort order).
  /// `checkable`: its rows (not a table's) carry a checkbox, to act on several at once.
  reset({ mode, label, columns = [], sort = [], checkable = false }) {
    this.mode = mode;
    this.checkable = checkable && mode !== "table";
    this.setChecked([]);
    this.label = label;
    this.columns = columns;
    this.sort = sort;
    this.entries = [];
    this.elements.clear();
    this.drawn.clear();
    this.expanded.clear();
    this.focusable = this.mode === "table" ? this.makeTable() : this.makeListbox();
    this.focusable.addEventListener("keydown", (event) => this.keydown(event));
    this.host.replaceChildren(this.focusable.closest(".grid-wrap") || this.focusable);
    this.scroller.scrollTop = 0;
  }

  makeListbox() {
    return h("div", { class: `listbox ${this.mode}`, role: "listbox", tabindex: "0", "aria-label": this.label });
  }

  makeTable() {
    const table = h("table", { class: "grid", role: "grid", tabindex: "0", "aria-label": this.label, "aria-readonly": "true" });
    table.append(tableHead(this.columns, this.sort, this.onSort), h("tbody"));
    h("div", { class: "grid-wrap" }, table);
    return table;
  }

  has(id) {
    return this.drawn.has(id) || this.entries.some((entry) => entry.id === id);
  }

  indexOf(id) {
    return this.entries.findIndex((entry) => entry.id === id);
  }

  /// Adds a following page; rows already shown (placed earlier by a refresh) are skipped.
  append(entries) {
    const known = new Set(this.entries.map((entry) => entry.id));
    for (const entry of entries) if (!known.has(entry.id)) this.entries.push(entry);
  }

  replaceAll(entries) {
    this.entries = [];
    this.expanded.clear();
    this.append(entries);
  }

  // MARK: - Outlines

  /// Shows `children` (entries of the row's children list) right below the row `id`, one level deeper.
  expand(id, children) {
    const index = this.indexOf(id);
    if (index < 0 || this.expanded.has(id)) return;
    const depth = (this.entries[index].depth || 0) + 1;
    const known = new Set(this.entries.map((entry) => entry.id));
    const shown = children.filter((entry) => !known.has(entry.id)).map((entry) => ({ ...entry, depth, parentID: id }));
    this.entries.splice(index + 1, 0, ...shown);
    this.expanded.add(id);
    this.redraw(id);
  }

  /// Takes away what `expand` showed below the row `id`, its open descendants' rows too.
  collapse(id) {
    if (!this.expanded.delete(id)) return;
    const gone = new Set([id]);
    this.entries = this.entries.filter((entry) => {
      if (!gone.has(entry.parentID)) return true;
      gone.add(entry.id);
      this.expanded.delete(entry.id);
      return false;
    });
    this.redraw(id);
  }

  async toggle(entry) {
    if (this.expanded.has(entry.id)) {
      this.collapse(entry.id);
    } else if (entry.row?.childCount > 0 && this.onExpand) {
      this.expand(entry.id, await this.onExpand(entry));
    }
  }

  /// Makes the row `id` be drawn again (its disclosure changed).
  redraw(id) {
    this.drawn.delete(id);
    this.render();
  }

  /// Brings the rows of a fresh first page into the list: each takes the place the server gives
  /// it, after the row before it on that page. Rows no longer on the first page stay where they
  /// are (they moved down a page, or the change feed deletes them). Returns the ids placed.
  reconcileFirstPage(fresh) {
    const placed = new Set();
    let previous = -1;
    for (const entry of fresh) {
      const index = this.indexOf(entry.id);
      // An unchanged row keeps its entry object, and with it its element.
      const kept = index >= 0 && sameEntry(this.entries[index], entry) ? this.entries[index] : entry;
      if (index >= 0) this.entries.splice(index, 1);
      if (index >= 0 && index <= previous) previous -= 1;
      this.entries.splice(previous + 1, 0, kept);
      previous += 1;
      placed.add(entry.id);
    }
    return placed;
  }

  /// A change-feed upsert of a shown row: new text in the same place and section.
  update(id, row) {
    const index = this.indexOf(id);
    if (index >= 0) this.entries[index] = { ...this.entries[index], row, detail: row.detail };
    if (index >= 0 && !(row.childCount > 0)) this.collapse(id);
  }

  /// The list as a stream event left it (live.js): unchanged rows keep their entries, and
  /// with them their elements.
  setEntries(entries) {
    this.entries = entries;
    if (this.selectedID && !entries.some((entry) => entry.id === this.selectedID)) this.selectedID = null;
  }

  insertAtTop(row) {
    this.entries.unshift({ id: row.id, detail: row.detail, row, section: null });
  }

  remove(id) {
    this.collapse(id);
    const index = this.indexOf(id);
    if (index >= 0) this.entries.splice(index, 1);
    if (this.selectedID === id) this.selectedID = null;
  }

  /// Ticks exactly these rows, and says so.
  setChecked(ids) {
    this.checked = new Set(ids);
    for (const [id, element] of this.elements) {
      const box = element.querySelector(".row-check");
      if (box) box.checked = this.checked.has(id);
    }
    this.onCheck([...this.checked]);
  }

  // MARK: - Drawing

  /// Redraws from the entries. The first row in view stays at the same height on screen, so
  /// rows inserted or removed above it do not move what the reader is looking at.
  render() {
    const anchor = this.scroller.scrollTop > 0 ? this.firstVisible() : null;
    const rows = this.entries.map((entry) => this.element(entry));
    if (this.mode === "table") {
      this.focusable.tBodies[0].replaceChildren(...rows);
    } else if (this.mode === "sections") {
      this.focusable.replaceChildren(...this.groups(rows));
    } else {
      this.focusable.replaceChildren(...rows);
    }
    const shown = new Set(this.entries.map((entry) => entry.id));
    for (const id of this.elements.keys()) {
      if (!shown.has(id)) {
        this.elements.delete(id);
        this.drawn.delete(id);
      }
    }
    // A ticked row that left the list (deleted, or no longer matching) is no longer ticked.
    if ([...this.checked].some((id) => !shown.has(id))) this.setChecked([...this.checked].filter((id) => shown.has(id)));
    this.markSelection();
    if (anchor) {
      const element = this.elements.get(anchor.id);
      if (element) this.scroller.scrollTop += this.offset(element) - anchor.offset;
    }
  }

  /// Consecutive rows of one section share a group; a section that continued on the next page
  /// arrives with the same id, so it simply goes on.
  groups(rows) {
    const groups = [];
    let current = null;
    // A counted list's sections carry their rows in the whole list; a row the feed placed does not.
    const counts = new Map();
    for (const entry of this.entries) if (entry.section?.count) counts.set(entry.section.id, entry.section.count);
    this.entries.forEach((entry, index) => {
      const section = entry.section || { id: "none", header: "" };
      if (!current || current.sectionID !== section.id) {
        const headerID = `section-${section.id}-${groups.length}`;
        current = h("div", { class: "section", role: "group", "aria-labelledby": headerID });
        current.sectionID = section.id;
        // The count is drawn after the header by the style sheet (its text stays the header's).
        const count = counts.get(section.id);
        const label = count && `${count.exact ? "" : "≈ "}${count.value.toLocaleString("en-US")}`;
        current.append(h("div", { class: "section-header", id: headerID, dataset: count ? { count: label } : {} }, section.header));
        groups.push(current);
      }
      current.append(rows[index]);
    });
    return groups;
  }

  element(entry) {
    if (this.drawn.get(entry.id) === entry) return this.elements.get(entry.id);
    const element = entry.table ? tableRow(entry, this.columns) : this.rowElement(entry.row, entry);
    element.id = `row-${entry.id}`;
    element.dataset.id = entry.id;
    element.addEventListener("click", () => {
      this.select(entry.id);
      this.focusable.focus({ preventScroll: true });
      this.open();
    });
    this.elements.set(entry.id, element);
    this.drawn.set(entry.id, entry);
    return element;
  }

  rowElement(row, entry) {
    const element = h(
      "div",
      { class: "row", role: "option", "aria-selected": "false" },
      this.checkable && this.checkbox(row, entry.id),
      row.children !== undefined && this.mode === "rows" && this.disclosure(row, entry),
      row.image && icon(row.image, "icon row-image"),
      h("span", { class: "row-text" }, h("span", { class: "row-title" }, row.title), row.subtitle && h("span", { class: "row-subtitle" }, row.subtitle)),
      row.trailing && h("span", { class: "row-trailing" }, row.trailing),
    );
    // Through the CSSOM, which the Content-Security-Policy allows where a style attribute is refused.
    if (entry.depth) element.style.setProperty("--depth", String(entry.depth));
    if (row.children !== undefined) element.setAttribute("aria-level", String((entry.depth || 0) + 1));
    return element;
  }

  /// An outline row's disclosure: a button when it has children, an empty place (so titles
  /// line up) when it has none.
  disclosure(row, entry) {
    if (!(row.childCount > 0)) return h("span", { class: "disclosure", "aria-hidden": "true" });
    const open = this.expanded.has(entry.id);
    const label = `${open ? "Hide" : "Show"} the ${row.childCount} ${row.childCount === 1 ? "child" : "children"} of ${row.title}`;
    const button = h(
      "button",
      { type: "button", class: "disclosure", "aria-expanded": String(open), "aria-label": label, tabindex: "-1" },
      icon("chevron.right", "icon disclosure-icon"),
    );
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      this.select(entry.id);
      this.toggle(entry);
    });
    return button;
  }

  /// The box that ticks a row: a click on it ticks, and does not open the row.
  checkbox(row, id) {
    const box = h("input", {
      type: "checkbox",
      class: "row-check",
      "aria-label": `Select ${row.title}`,
      tabindex: "-1",
      onclick: (event) => event.stopPropagation(),
      onchange: () => {
        const ids = new Set(this.checked);
        if (box.checked) ids.add(id);
        else ids.delete(id);
        this.setChecked([...ids]);
      },
    });
    box.checked = this.checked.has(id);
    return box;
  }

  offset(element) {
    return element.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top;
  }

  firstVisible() {
    for (const entry of this.entries) {
      const element = this.elements.get(entry.id);
      if (!element) continue;
      const offset = this.offset(element);
      if (offset + element.offsetHeight > 0) return { id: entry.id, offset };
    }
    return null;
  }

  // MARK: - Selection and keyboard

  /// The selected row (keyboard focus within the list) and the opened one (shown in the
  /// detail) are usually the same; arrows move the first, Enter makes it the second.
  select(id, { scroll = false } = {}) {
    this.selectedID = id;
    this.markSelection();
    const element = this.elements.get(id);
    if (scroll && element) element.scrollIntoView({ block: "nearest" });
  }

  markSelection() {
    for (const [id, element] of this.elements) {
      element.setAttribute("aria-selected", String(id === this.selectedID));
      element.classList.toggle("opened", id === this.openedID);
    }
    if (this.selectedID && this.elements.has(this.selectedID)) {
      this.focusable.setAttribute("aria-activedescendant", `row-${this.selectedID}`);
    } else {
      this.focusable.removeAttribute("aria-activedescendant");
    }
  }

  open() {
    const entry = this.entries[this.indexOf(this.selectedID)];
    if (!entry) return;
    this.openedID = entry.id;
    this.markSelection();
    this.onOpen(entry);
  }

  keydown(event) {
    if (event.target !== this.focusable || this.entries.length === 0) return;
    const index = this.indexOf(this.selectedID);
    const last = this.entries.length - 1;
    const moves = {
      ArrowDown: index < 0 ? 0 : Math.min(index + 1, last),
      ArrowUp: index < 0 ? 0 : Math.max(index - 1, 0),
      Home: 0,
      End: last,
    };
    const entry = this.entries[index];
    if (entry?.row?.children !== undefined && (event.key === "ArrowRight" || event.key === "ArrowLeft")) {
      // A tree's keys: right opens the row's children, left closes them (or goes to its parent).
      event.preventDefault();
      const open = this.expanded.has(entry.id);
      if (event.key === "ArrowRight" && !open) this.toggle(entry);
      else if (event.key === "ArrowLeft" && open) this.collapse(entry.id);
      else if (event.key === "ArrowLeft" && entry.parentID) this.select(entry.parentID, { scroll: true });
    } else if (event.key in moves) {
      event.preventDefault();
      this.select(this.entries[moves[event.key]].id, { scroll: true });
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.open();
    }
  }
}

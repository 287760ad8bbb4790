// The table mode (`?view=table`): column headers that sort by following the column's own
// links, and rows with every cell plus a compact first column (title and subtitle) that the
// style sheet shows instead of the others on narrow windows, like SwiftUI's adaptive Table.

import { h } from "./dom.js";

/// The header row. The compact column's header is the first column's, so a narrow window can
/// still sort by it.
export function tableHead(columns, sort, onSort) {
  const primary = sort[0] || null;
  const header = (column, className) => {
    const order = primary && primary.column === column.id ? primary.order : null;
    const numeric = column.alignment === "numeric" ? " numeric" : "";
    return h(
      "th",
      { scope: "col", class: className + numeric, "aria-sort": column.sortable ? order || "none" : null, dataset: { column: column.id } },
      column.sortable && column.links ? sortButton(column, order, onSort) : column.title,
    );
  };
  const cells = columns.map((column) => header(column, "full-col"));
  if (columns.length) cells.unshift(header(columns[0], "compact-col"));
  return h("thead", {}, h("tr", {}, cells));
}

/// Ascending first; a second click on the sorted column reverses it. Either way the page
/// follows a link the server put on the column.
function sortButton(column, order, onSort) {
  const next = order === "ascending" ? "descending" : "ascending";
  return h(
    "button",
    { type: "button", class: "sort", "aria-label": `${column.title}: sort ${next}`, onclick: () => onSort(column.links[next]) },
    column.title,
    h("span", { class: "sort-indicator", "aria-hidden": "true" }, order === "ascending" ? "▲" : order === "descending" ? "▼" : ""),
  );
}

export function tableRow(entry, columns) {
  const { cells, compact } = entry.table;
  const row = h(
    "tr",
    { "aria-selected": "false" },
    h("td", { class: "compact-col" }, h("span", { class: "row-title" }, compact.title), compact.subtitle && h("span", { class: "row-subtitle" }, compact.subtitle)),
  );
  for (const column of columns) {
    const value = cells[column.id];
    const numeric = column.alignment === "numeric" ? " numeric" : "";
    row.append(h("td", { class: "full-col" + numeric }, value === null || value === undefined ? "—" : value));
  }
  return row;
}

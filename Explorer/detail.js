// The right column: the detail of the opened row, fetched by following the row's `detail`
// link, with a "No Selection" placeholder until a row is chosen (SwiftUI's split view). Any
// JSON detail renders: its name or title as the heading, scalar fields as a definition list,
// nested objects by their formatted value or as a link, and its `links` (other than self and
// collection) as buttons that open the linked list or detail. Where the server allows it (the
// item's OPTIONS lists DELETE), a Delete button, confirmed in place, deletes the item: the one
// write the explorer makes, and so the one that needs an API key.

import { APIError, allowedMethods, deleteItem, getJSON } from "./api.js";
import { h, humanize } from "./dom.js";
import { problemView } from "./problem.js";

const headingKeys = ["name", "fullName", "headline", "title", "timestamp"];

/// Details show their own text in full; a list's row shows it truncated.
const proseKeys = new Set(["longDescription", "markdown", "body", "preview"]);

export class DetailView {
  /// `onOpenList(link, title)`: a detail link led to a list (a track's samples, a department's
  /// people). `onDeleted()`: the shown item was deleted here (the list should drop it).
  constructor(host, { onOpenList, onShow, onDeleted }) {
    this.host = host;
    this.onOpenList = onOpenList;
    this.onShow = onShow;
    this.onDeleted = onDeleted;
    this.link = null;
    this.etag = null;
    this.opened = null; // what open() last showed, or failed to: `{link, title}`, for reopen()
    this.request = 0;
    this.placeholder();
  }

  placeholder(title = "No Selection", note = "") {
    this.link = null;
    this.etag = null;
    this.opened = null;
    this.request += 1;
    this.host.replaceChildren(
      h("div", { class: "placeholder" }, h("p", { class: "placeholder-title" }, title), note && h("p", { class: "placeholder-note" }, note)),
    );
  }

  /// Follows `link`; what comes back is drawn unless another open() started meanwhile. `title`
  /// is the opened row's title: the heading of a detail with none of the usual name keys (any
  /// definition's items: a ticket's subject).
  async open(link, title = null) {
    const request = ++this.request;
    this.title = title;
    this.host.setAttribute("aria-busy", "true");
    try {
      const { body, etag } = await getJSON(link);
      if (request !== this.request) return;
      if (body.rows || body.sections || body.columns) {
        this.onOpenList(link, this.heading ? `${this.heading}: ${humanize(this.followed || "list")}` : "List");
        this.followed = null;
        return;
      }
      this.link = link;
      this.etag = etag;
      this.opened = { link, title };
      this.draw(body);
      this.onShow();
    } catch (error) {
      if (request !== this.request) return;
      this.opened = { link, title };
      this.problem(error);
    } finally {
      if (request === this.request) this.host.removeAttribute("aria-busy");
    }
  }

  /// Reads the opened item again, as new: the API key changed, so what the server answers
  /// (a key-only collection's detail, whether a write is allowed) may have too.
  reopen() {
    if (this.opened) this.open(this.opened.link, this.opened.title);
  }

  /// Revalidates the shown detail (a 304 changes nothing); a 404 means it was deleted.
  async revalidate() {
    if (!this.link) return;
    const request = this.request;
    try {
      const result = await getJSON(this.link, { etag: this.etag });
      if (request !== this.request || result.notModified) return;
      this.etag = result.etag;
      this.draw(result.body);
    } catch (error) {
      if (request !== this.request) return;
      if (error instanceof APIError && error.status === 404) this.placeholder("Deleted", "This item no longer exists.");
      // Other failures keep what is shown; the next refresh tries again.
    }
  }

  problem(error) {
    this.link = null;
    this.host.replaceChildren(problemView(error));
    this.onShow();
  }

  draw(detail) {
    const headingKey = headingKeys.find((key) => typeof detail[key] === "string");
    this.heading = headingKey ? detail[headingKey] : this.title || detail.id;
    const fields = h("dl", { class: "fields" });
    for (const [key, value] of Object.entries(detail)) {
      if (key === "links" || key === headingKey || key === "id") continue;
      fields.append(h("dt", {}, humanize(key)), this.value(key, value));
    }
    fields.append(h("dt", {}, "ID"), h("dd", { class: "mono" }, detail.id));
    const links = Object.entries(detail.links || {}).filter(([key]) => key !== "self" && key !== "collection");
    this.host.replaceChildren(
      h(
        "article",
        { class: "detail-body", "aria-labelledby": "detail-heading" },
        h("h2", { id: "detail-heading", class: "detail-heading" }, this.heading),
        links.length > 0 &&
          h(
            "div",
            { class: "detail-links" },
            links.map(([key, link]) => h("button", { type: "button", class: "link-button", dataset: { link: key }, onclick: () => this.follow(key, link) }, humanize(key))),
          ),
        fields,
        h("div", { class: "detail-actions" }),
      ),
    );
    if (detail.links?.self) this.offerDelete(detail.links.self, this.heading);
  }

  // MARK: - Delete

  /// Shows the Delete button once the server says the item can be deleted: a collection its
  /// definition keeps read-only answers OPTIONS without DELETE. Without a key the button is
  /// offered all the same: the server's 401 then says what is missing.
  async offerDelete(link, name) {
    const request = this.request;
    const methods = await allowedMethods(link).catch(() => []);
    if (request !== this.request || !methods.includes("DELETE")) return;
    this.showDelete(link, name);
  }

  /// The actions under the fields: the Delete button, and above it what the last try said.
  showDelete(link, name, problem = null) {
    const actions = this.host.querySelector(".detail-actions");
    if (!actions) return;
    actions.replaceChildren(
      ...(problem ? [problemView(problem)] : []),
      h("button", { type: "button", class: "delete-button", dataset: { action: "delete" }, onclick: () => this.confirmDelete(link, name) }, "Delete…"),
    );
  }

  /// Asks in place (no window.confirm: it would stop the page's refreshes while open).
  confirmDelete(link, name) {
    const actions = this.host.querySelector(".detail-actions");
    const cancel = h("button", { type: "button", class: "link-button", dataset: { action: "cancel-delete" }, onclick: () => this.showDelete(link, name) }, "Cancel");
    actions.replaceChildren(
      h(
        "div",
        { class: "confirm", role: "group", "aria-label": "Confirm delete" },
        h("p", { class: "confirm-text" }, `Delete “${name}”? This cannot be undone.`),
        h("button", { type: "button", class: "delete-button", dataset: { action: "confirm-delete" }, onclick: () => this.delete(link, name) }, "Delete"),
        cancel,
      ),
    );
    cancel.focus();
  }

  /// DELETE with If-Match, so an item changed since it was shown is not deleted unseen (412).
  /// A refusal (no key, a key without the scope, a 409 while others refer to it) is shown with
  /// the server's own title and detail, and the item stays shown.
  async delete(link, name) {
    const request = this.request;
    this.host.setAttribute("aria-busy", "true");
    try {
      await deleteItem(link, { etag: this.etag });
      if (request !== this.request) return;
      this.host.removeAttribute("aria-busy");
      this.placeholder("Deleted", `“${name}” was deleted.`);
      this.onDeleted();
    } catch (error) {
      if (request === this.request) this.showDelete(link, name, error);
    } finally {
      if (request === this.request) this.host.removeAttribute("aria-busy");
    }
  }

  follow(key, link) {
    this.followed = key;
    this.open(link);
  }

  value(key, value) {
    if (value === null || value === undefined) return h("dd", { class: "secondary" }, "—");
    if (Array.isArray(value)) return h("dd", {}, this.list(value));
    if (typeof value === "object") {
      if (typeof value.formatted === "string") return h("dd", { class: "numeric-value" }, value.formatted);
      if (typeof value.detail === "string") {
        return h("dd", {}, h("button", { type: "button", class: "link-button inline", onclick: () => this.follow(key, value.detail) }, value.name || value.id));
      }
      return h("dd", { class: "mono" }, JSON.stringify(value));
    }
    const text = String(value);
    return h("dd", { class: proseKeys.has(key) || text.length > 120 ? "prose" : null }, text);
  }

  /// Channels by name; levels as "name: formatted".
  list(values) {
    if (values.length === 0) return h("span", { class: "secondary" }, "None");
    return h(
      "ul",
      { class: "values" },
      values.map((item) => {
        if (item === null || typeof item !== "object") return h("li", {}, String(item));
        const label = item.name || item.title || item.id || "";
        return h("li", {}, label, typeof item.formatted === "string" && h("span", { class: "trailing" }, item.formatted));
      }),
    );
  }
}

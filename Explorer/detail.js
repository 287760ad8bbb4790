// The right column: the detail of the opened row, fetched by following the row's `detail`
// link, with a "No Selection" placeholder until a row is chosen (SwiftUI's split view). Any
// JSON detail renders: its name or title as the heading, scalar fields as a definition list,
// nested objects by their formatted value or as a link, and its `links` (other than self and
// collection) as buttons that open the linked list or detail.

import { APIError, getJSON } from "./api.js";
import { h, humanize } from "./dom.js";
import { icon } from "./icons.js";

const headingKeys = ["name", "fullName", "headline", "title", "timestamp"];

/// Details show their own text in full; a list's row shows it truncated.
const proseKeys = new Set(["longDescription", "markdown", "body", "preview"]);

export class DetailView {
  /// `onOpenList(link, title)`: a detail link led to a list (a track's samples, a department's people).
  constructor(host, { onOpenList, onShow }) {
    this.host = host;
    this.onOpenList = onOpenList;
    this.onShow = onShow;
    this.link = null;
    this.etag = null;
    this.request = 0;
    this.placeholder();
  }

  placeholder(title = "No Selection", note = "") {
    this.link = null;
    this.etag = null;
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
      this.draw(body);
      this.onShow();
    } catch (error) {
      if (request === this.request) this.problem(error);
    } finally {
      if (request === this.request) this.host.removeAttribute("aria-busy");
    }
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
      ),
    );
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

/// A problem+json error inline: its title and detail, in an alert.
export function problemView(error, retry = null) {
  const title = error instanceof APIError ? error.title : "Something Went Wrong";
  const detail = error instanceof APIError ? error.detail : String(error && error.message ? error.message : error);
  return h(
    "div",
    { class: "problem", role: "alert" },
    icon("exclamationmark.triangle", "icon problem-icon"),
    h("div", {}, h("p", { class: "problem-title" }, title), detail && h("p", { class: "problem-detail" }, detail)),
    retry && h("button", { type: "button", class: "retry", onclick: retry }, "Try Again"),
  );
}

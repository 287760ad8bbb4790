// Talking to rowserver. Every URL the page requests comes from the server (the index, a
// page's links, a row's detail link, a column's sort links, the change feed's next link); the
// one exception is the search parameter `q`, added by withSearch(). Every request carries the
// API key when one is set (key.js), and only then.

import { currentKey, keyRejected } from "./key.js";

/// A failed request, shaped like the problem+json body the API sends (RFC 9457), so the page
/// shows the server's own title and detail. Network failures get a title of their own.
export class APIError extends Error {
  constructor(problem) {
    super(problem.detail || problem.title);
    this.title = problem.title || "Error";
    this.detail = problem.detail || "";
    this.status = problem.status || 0;
    this.code = problem.code || "";
  }
}

/// The problem codes about the API key (KeyAuthenticator on the server): none sent where one is
/// needed, one the server does not know (or revoked), one whose scopes do not cover the request.
export const keyCodes = new Set(["KEY_REQUIRED", "INVALID_KEY", "KEY_SCOPE"]);

/// GET a JSON resource. With `etag`, sends If-None-Match and resolves to
/// `{notModified: true}` on 304. Resolves to `{body, etag}` otherwise.
export async function getJSON(url, { etag = null, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (etag) headers["If-None-Match"] = etag;
  const { response, key } = await request(url, { headers, signal });
  if (response.status === 304) return { notModified: true, etag };
  if (!response.ok) throw await problemFrom(response, key);
  try {
    return { body: await response.json(), etag: response.headers.get("ETag") };
  } catch {
    throw new APIError({ title: "Unreadable Response", detail: `${url} did not answer with JSON.`, status: response.status });
  }
}

/// DELETE `url`, only while it still is the version `etag` names (If-Match: a 412 when it
/// changed since it was shown). Resolves when the server said yes.
export async function deleteItem(url, { etag = null } = {}) {
  const headers = { Accept: "application/json" };
  if (etag) headers["If-Match"] = etag;
  const { response, key } = await request(url, { method: "DELETE", headers });
  if (!response.ok) throw await problemFrom(response, key);
}

/// POST a JSON body to `url` (a batch of writes): resolves to the JSON answer.
export async function postJSON(url, body) {
  const headers = { Accept: "application/json", "Content-Type": "application/json" };
  const { response, key } = await request(url, { method: "POST", headers, body: JSON.stringify(body) });
  if (!response.ok) throw await problemFrom(response, key);
  return response.json();
}

/// The methods the server allows on `url` (OPTIONS answers them in `Allow`): a collection its
/// definition keeps read-only has no DELETE, so the page offers none.
export async function allowedMethods(url) {
  const { response, key } = await request(url, { method: "OPTIONS" });
  if (!response.ok) throw await problemFrom(response, key);
  return (response.headers.get("Allow") || "").split(",").map((method) => method.trim().toUpperCase());
}

/// fetch() with the key, if any, in the Authorization header (never in the URL): resolves to
/// the response and the key it was sent with. A network failure becomes an APIError of its own.
async function request(url, { method = "GET", headers = {}, body, signal } = {}) {
  const key = currentKey();
  if (key) headers = { ...headers, Authorization: `Bearer ${key}` };
  let response;
  try {
    // no-store: the page does its own revalidation; the browser cache must neither answer
    // for the server nor add conditional headers of its own.
    response = await fetch(url, { method, headers, body, cache: "no-store", signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new APIError({ title: "Network Error", detail: "rowserver did not answer. Check that it is running, then try again." });
  }
  return { response, key };
}

async function problemFrom(response, sentKey) {
  const problem = await problemBody(response);
  // A refused key is news for the whole page (the key button says so), not just for the
  // request that happened to find out.
  if (problem.code === "INVALID_KEY") keyRejected(sentKey, problem.detail);
  return problem;
}

async function problemBody(response) {
  const type = response.headers.get("Content-Type") || "";
  if (type.includes("json")) {
    try {
      return new APIError(await response.json());
    } catch {
      // Fall through to the status line.
    }
  }
  return new APIError({ title: `${response.status} ${response.statusText}`, detail: "", status: response.status });
}

/// A link's path and its parameters, each as the server wrote it.
function partsOf(link) {
  const [path, search = ""] = link.split("?");
  return [path, search.split("&").filter((part) => part)];
}

/// The server's link asking for its list's total (`count=estimated`, which never counts a
/// large list row by row), unless the link already says how to count.
export function withCount(link) {
  const [path, parameters] = partsOf(link);
  if (parameters.some((part) => part.startsWith("count="))) return link;
  return `${path}?${[...parameters, "count=estimated"].join("&")}`;
}

/// The server's link with the search parameter set (or removed when `query` is empty). The
/// server's own parameters are kept byte for byte; only `q` is replaced.
export function withSearch(link, query) {
  const [path, all] = partsOf(link);
  const parameters = all.filter((part) => !part.startsWith("q="));
  if (query) parameters.push("q=" + encodeURIComponent(query));
  return parameters.length ? `${path}?${parameters.join("&")}` : path;
}

/// The search a link carries, so the field shows what the list is filtered by.
export function searchOf(link) {
  return new URL(link, location.origin).searchParams.get("q") || "";
}

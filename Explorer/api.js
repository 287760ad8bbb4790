// Talking to rowserver. Every URL the page requests comes from the server (the index, a
// page's links, a row's detail link, a column's sort links, the change feed's next link); the
// one exception is the search parameter `q`, added by withSearch().

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

/// GET a JSON resource. With `etag`, sends If-None-Match and resolves to
/// `{notModified: true}` on 304. Resolves to `{body, etag}` otherwise.
export async function getJSON(url, { etag = null, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (etag) headers["If-None-Match"] = etag;
  let response;
  try {
    // no-store: the page does its own revalidation; the browser cache must neither answer
    // for the server nor add conditional headers of its own.
    response = await fetch(url, { headers, cache: "no-store", signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new APIError({ title: "Network Error", detail: "rowserver did not answer. Check that it is running, then try again." });
  }
  if (response.status === 304) return { notModified: true, etag };
  if (!response.ok) throw await problemFrom(response);
  try {
    return { body: await response.json(), etag: response.headers.get("ETag") };
  } catch {
    throw new APIError({ title: "Unreadable Response", detail: `${url} did not answer with JSON.`, status: response.status });
  }
}

async function problemFrom(response) {
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

/// The server's link with the search parameter set (or removed when `query` is empty). The
/// server's own parameters are kept byte for byte; only `q` is replaced.
export function withSearch(link, query) {
  const [path, search = ""] = link.split("?");
  const parameters = search.split("&").filter((part) => part && !part.startsWith("q="));
  if (query) parameters.push("q=" + encodeURIComponent(query));
  return parameters.length ? `${path}?${parameters.join("&")}` : path;
}

/// The search a link carries, so the field shows what the list is filtered by.
export function searchOf(link) {
  return new URL(link, location.origin).searchParams.get("q") || "";
}

// The API key the explorer sends. Reading needs none; writes (and collections whose definition
// says `read: key`) need one, made with `rowserver keys create`. It is kept in sessionStorage:
// it lasts as long as this tab (a reload keeps it) and is never written to disk for other tabs
// or later visits, the way localStorage would. It never goes into a URL either: the server
// refuses key-like query parameters, and URLs end up in logs and history.
//
// Other modules listen on `keyEvents`: "change" when a key is set or cleared, "rejected" when
// the server answered 401 INVALID_KEY to it, "enter" when something asks for the key dialog.

const storageName = "rowserver.apiKey";

export const keyEvents = new EventTarget();

// When storage is unavailable (disabled, or full), the key lives in this variable: it still
// works until the page is closed or reloaded.
let memory = null;
let rejection = null;

export function currentKey() {
  try {
    return sessionStorage.getItem(storageName) || memory;
  } catch {
    return memory;
  }
}

/// Why the server refused the current key (its problem detail), or null while it has not.
export function keyRejection() {
  return rejection;
}

export function setKey(key) {
  memory = key;
  try {
    sessionStorage.setItem(storageName, key);
  } catch {
    // Kept in memory only.
  }
  changed();
}

export function clearKey() {
  memory = null;
  try {
    sessionStorage.removeItem(storageName);
  } catch {
    // Nothing was stored.
  }
  changed();
}

/// Why `text` cannot be a key, or null. A header value must be visible ASCII: anything else
/// would make fetch() throw, which the page would report as a network failure.
export function keyMistake(text) {
  if (!text) return "Enter a key.";
  if (!/^[\x21-\x7e]+$/.test(text)) return "A key has no spaces and no characters outside ASCII.";
  return null;
}

/// The server answered 401 INVALID_KEY to a request that carried `sentKey`. An answer to a key
/// that was replaced meanwhile says nothing about the current one.
export function keyRejected(sentKey, detail) {
  if (!sentKey || sentKey !== currentKey() || rejection !== null) return;
  rejection = detail || "The server did not accept the key.";
  keyEvents.dispatchEvent(new Event("rejected"));
}

/// Opens the key dialog, from wherever a problem points to it.
export function askForKey() {
  keyEvents.dispatchEvent(new Event("enter"));
}

function changed() {
  rejection = null;
  keyEvents.dispatchEvent(new Event("change"));
}

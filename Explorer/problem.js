// A failed request shown inline: the server's problem+json title and detail (RFC 9457), in an
// alert. A problem about the API key also says what to do about it here, with the one action
// that helps (a retry would only fail the same way until the key changes, and changing it
// reloads what is shown anyway).

import { APIError } from "./api.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { askForKey, clearKey } from "./key.js";

export function problemView(error, retry = null) {
  const title = error instanceof APIError ? error.title : "Something Went Wrong";
  const detail = error instanceof APIError ? error.detail : String(error && error.message ? error.message : error);
  const help = keyHelp(error);
  const action = help ? { label: help.label, onclick: help.action } : retry && { label: "Try Again", onclick: retry };
  return h(
    "div",
    { class: "problem", role: "alert", dataset: { code: (error && error.code) || "" } },
    icon("exclamationmark.triangle", "icon problem-icon"),
    h(
      "div",
      {},
      h("p", { class: "problem-title" }, title),
      detail && h("p", { class: "problem-detail" }, detail),
      help && h("p", { class: "problem-help" }, help.text),
    ),
    action && h("button", { type: "button", class: help ? "retry key-fix" : "retry", onclick: action.onclick }, action.label),
  );
}

/// What the reader can do about a key problem (the codes of the server's KeyAuthenticator).
function keyHelp(error) {
  switch (error instanceof APIError ? error.code : "") {
    case "KEY_REQUIRED":
      return {
        text: "This needs an API key, and the explorer has none. Enter one with the API key button at the top of the sidebar (rowserver keys create makes one).",
        label: "Enter API Key",
        action: askForKey,
      };
    case "INVALID_KEY":
      return { text: "The API key entered in this explorer is not accepted. Clear it to read without one, or enter another.", label: "Clear Key", action: clearKey };
    case "KEY_SCOPE":
      return { text: "The API key entered in this explorer does not allow this. Enter one with the scope it needs.", label: "Change Key", action: askForKey };
    default:
      return null;
  }
}

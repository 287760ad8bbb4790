// The API key's place in the page: a button at the top of the sidebar that says whether a key
// is set (or refused), and the small modal dialog it opens to enter, replace or clear one. The
// page reads without a key; nothing here is in the way until a write or a key-only collection
// needs one, and then the problem shown points here.
//
// The field is not in a form (the CSP allows no form action); Enter uses the key. The dialog
// never shows a stored key back: only its id, the public part of `rsk_<id>_<secret>`.

import { clearKey, currentKey, keyEvents, keyMistake, keyRejection, setKey } from "./key.js";

export class KeyDialog {
  /// `ui`: the button, the <dialog> and, inside it, the field, the status line and the buttons.
  constructor(ui) {
    this.ui = ui;
    ui.button.addEventListener("click", () => this.open());
    ui.save.addEventListener("click", () => this.save());
    ui.clear.addEventListener("click", () => {
      clearKey();
      this.close();
    });
    ui.cancel.addEventListener("click", () => this.close());
    ui.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.save();
      }
    });
    // Escape closes the dialog by itself; the field must not keep what was typed.
    ui.dialog.addEventListener("close", () => (ui.input.value = ""));
    for (const name of ["change", "rejected"]) keyEvents.addEventListener(name, () => this.draw());
    keyEvents.addEventListener("enter", () => this.open());
    this.draw();
  }

  open() {
    this.draw();
    if (!this.ui.dialog.open) this.ui.dialog.showModal();
    this.ui.input.focus();
  }

  close() {
    if (this.ui.dialog.open) this.ui.dialog.close();
  }

  save() {
    const text = this.ui.input.value.trim();
    const mistake = keyMistake(text);
    if (mistake) {
      this.ui.status.textContent = mistake;
      this.ui.status.classList.add("refused");
      this.ui.input.focus();
      return;
    }
    setKey(text);
    this.close();
  }

  /// The button's label and the dialog's status: no key, a key (by its id), or a refused key.
  draw() {
    const { button, label, status, clear, input } = this.ui;
    const key = currentKey();
    const rejection = key ? keyRejection() : null;
    const id = key && /^rsk_([0-9a-z]{12})_/.exec(key)?.[1];
    label.textContent = !key ? "No API key" : rejection ? "Key not accepted" : "API key set";
    button.classList.toggle("set", Boolean(key) && !rejection);
    button.classList.toggle("refused", Boolean(rejection));
    button.title = key ? "Change or clear the API key" : "Enter an API key (writes need one)";
    clear.hidden = !key;
    input.placeholder = key ? "A new key replaces the current one" : "rsk_…";
    status.classList.toggle("refused", Boolean(rejection));
    const which = id ? `The key ${id}` : "The key";
    if (!key) status.textContent = "No key is set: the explorer reads what is public; writes need one.";
    else if (rejection) status.textContent = `${which} is not accepted. ${rejection} Clear it, or enter another.`;
    else status.textContent = `${which} is set: it goes with every request this tab makes.`;
  }
}

// What a phone says about its waiting taps: the banner (#offline, role=status):
// offline or sending, how many taps wait, and what became of them; and on each waiting tap's
// control, "waiting for the table…". Notes of refused or dropped taps stay until OK, across a
// reload too (kept in localStorage, "tc-notes:CODE:SEAT"); "reached" ones fade.

import { net, queueKey, waiting, taps, QUEUE_PREFIX } from "./queue.js";

export var NOTES_PREFIX = "tc-notes:";
var notes = [];

export function notesKey() {
  var key = queueKey();
  return key ? NOTES_PREFIX + key.slice(QUEUE_PREFIX.length) : null;
}
// The notes that wait for OK, as this phone keeps them; one going with the page to the next
// table (carried) is that table's to keep.
function storeNotes() {
  var key = notesKey();
  if (!key) return;
  var kept = notes.filter(function (n) { return n.kind !== "ok" && !n.carried; })
    .map(function (n) { return { kind: n.kind, text: n.text, at: n.at }; });
  try {
    if (kept.length) localStorage.setItem(key, JSON.stringify(kept));
    else localStorage.removeItem(key);
  } catch (e) { /* no storage: this page shows them until OK */ }
}
function storedNotes() {
  var key = notesKey();
  if (!key) return [];
  try {
    var list = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(list) ? list.filter(function (n) { return n && typeof n.text === "string"; }) : [];
  } catch (e) { return []; }
}
// On load, and when another tab of the same seat changed them: the kept notes, as stored.
export function loadNotes() {
  var kept = storedNotes().map(function (n) { return { kind: n.kind || "refused", text: n.text, at: n.at || Date.now() }; });
  notes = notes.filter(function (n) { return n.kind === "ok" || n.carried; }).concat(kept);
}

export function note(kind, text, carried) {
  notes.push({ kind: kind, text: text, at: Date.now(), carried: !!carried });
  if (kind === "ok") setTimeout(function () { notes = notes.filter(function (n) { return n.text !== text; }); showWaiting(); }, 8000);
  else storeNotes();
  showWaiting();
}
function renderBanner(list) {
  var box = document.getElementById("offline");
  if (!box) return;
  var line = "";
  var onPhone = !!queueKey();
  if (list.length && net.flushing && !net.offline) line = "Back online: sending " + taps(list.length) + " made without a connection…";
  else if (list.length && net.offline) line = "No connection to the table. " + taps(list.length) + " waiting on this phone: " +
    (list.length === 1 ? "it goes" : "they go") + " out when the connection is back.";
  else if (list.length) line = taps(list.length) + " waiting for the table; trying again…";
  else if (net.offline && document.getElementById("live-body")) line = onPhone
    ? "No connection to the table. A tap made now waits on this phone until it is back." : "No connection to the table.";
  var state = list.length ? (net.flushing && !net.offline ? "sending" : "waiting") : line ? "offline" : notes.length ? "done" : "";
  var signature = JSON.stringify([line, notes.map(function (n) { return [n.kind, n.text]; })]);
  if (box.dataset.state !== state) box.dataset.state = state;  // unchanged: not written again on every message
  if (box.dataset.waiting !== String(list.length)) box.dataset.waiting = String(list.length);
  if (box.tcShown === signature) return;  // the same words again would be read out again
  box.tcShown = signature;
  box.innerHTML = "";
  if (line) {
    var p = document.createElement("p");
    p.className = "offline-line";
    p.textContent = line;
    box.appendChild(p);
  }
  if (notes.length) {
    var ul = document.createElement("ul");
    ul.className = "offline-notes";
    notes.forEach(function (n) {
      var li = document.createElement("li");
      li.className = "offline-note " + n.kind;
      li.textContent = n.text;
      ul.appendChild(li);
    });
    box.appendChild(ul);
    if (notes.some(function (n) { return n.kind !== "ok"; })) {
      var ok = document.createElement("button");
      ok.type = "button";
      ok.className = "small ghost";
      ok.dataset.offlineOk = "";
      ok.textContent = "OK";
      box.appendChild(ok);
    }
  }
  // The toast goes above it (a class, not `body:has(…)`, which Chromium checked again on every live message).
  document.body.classList.toggle("offline-shown", !!box.firstChild);
  document.body.style.setProperty("--offline-height", box.offsetHeight + "px");
}
document.addEventListener("click", function (event) {
  if (!event.target.closest || !event.target.closest("[data-offline-ok]")) return;
  notes = [];
  storeNotes();
  showWaiting();
});

// Each waiting tap's control, found again after any re-render (a reload too): a form to the
// same address whose fields are the tap's, and the button it was sent with.
function controlOf(entry, forms) {
  var sent = {};
  entry.params.forEach(function (p) { (sent[p[0]] = sent[p[0]] || []).push(p[1]); });
  for (var i = 0; i < forms.length; i++) {
    var form = forms[i], url;
    try { url = new URL(form.getAttribute("hx-post") || form.getAttribute("action") || "", location.href).pathname; } catch (e) { continue; }
    if (url !== entry.url) continue;
    var fits = true, buttons = [], button = null, names = {};
    Array.from(form.elements).forEach(function (el) {
      if (!el.name) return;
      names[el.name] = true;
      if (el.tagName === "BUTTON" || el.type === "submit") { buttons.push(el); return; }
      if (/^(csrf|page)$/.test(el.name)) return;
      if (!sent[el.name] || (el.type === "hidden" && sent[el.name].indexOf(el.value) < 0)) fits = false;
    });
    // What htmx adds from outside the form (hx-include: the step the page showed) is sent too.
    var include = form.getAttribute("hx-include");
    if (include) document.querySelectorAll(include).forEach(function (el) { if (el.name) names[el.name] = true; });
    // The form token and page kind ride along in some renders and not others: not a field.
    Object.keys(sent).forEach(function (name) { if (!/^(action_id|csrf|page)$/.test(name) && !names[name]) fits = false; });
    if (buttons.length) {
      button = buttons.filter(function (b) { return sent[b.name] && sent[b.name].indexOf(b.value) >= 0; })[0];
      if (!button) fits = false;
    }
    if (fits) return { form: form, button: button || form.querySelector("button:not([type=button]), [type=submit]") };
  }
  return null;
}
var noteIds = 0, marked = 0;
function markControls(list) {
  var forms = list.length ? Array.from(document.querySelectorAll("#live-body form")) : [], wanted = [];
  list.forEach(function (entry) {
    var found = controlOf(entry, forms);
    if (!found) return;
    var same = wanted.filter(function (w) { return w.form === found.form; })[0];
    if (!same) wanted.push(same = { form: found.form, buttons: [], count: 0 });
    same.count += 1;
    if (found.button && same.buttons.indexOf(found.button) < 0) same.buttons.push(found.button);
  });
  // Only what changed is touched: a note read out again every few seconds would be noise.
  var notesKept = [], buttonsKept = [];
  wanted.forEach(function (w) {
    var text = "waiting for the table…" + (w.count > 1 ? " (" + taps(w.count) + ")" : "");
    var p = w.form.nextElementSibling;
    if (!p || !p.classList.contains("waiting-note")) {
      p = document.createElement("p");
      p.className = "waiting-note";
      w.form.insertAdjacentElement("afterend", p);
    }
    if (!p.id) p.id = "waiting-note-" + (++noteIds);
    if (p.textContent !== text) p.textContent = text;
    notesKept.push(p);
    w.buttons.forEach(function (b) {
      b.classList.add("tc-waiting");
      b.dataset.tcNote = p.id;
      if (!b.hasAttribute("aria-describedby")) b.setAttribute("aria-describedby", p.id);
      buttonsKept.push(b);
    });
  });
  marked = notesKept.length;
  document.querySelectorAll(".waiting-note").forEach(function (n) { if (notesKept.indexOf(n) < 0) n.remove(); });
  document.querySelectorAll(".tc-waiting").forEach(function (b) {
    if (buttonsKept.indexOf(b) >= 0) return;
    b.classList.remove("tc-waiting");
    if (b.getAttribute("aria-describedby") === b.dataset.tcNote) b.removeAttribute("aria-describedby");
  });
}
export function showWaiting() {
  var list = waiting();
  renderBanner(list);
  markControls(list);
}
// On load and after any settled swap: shown again where there is anything to show.
export function refreshBanner() {
  if (queueKey() || notes.length || net.offline) showWaiting();
}
// After a stream message only while there is something to show: with no tap waiting, no
// note and no control marked, the banner and the controls are as they were (a message
// never adds a waiting tap: this page's own taps and another tab's "storage" do).
export function afterLive() {
  if (!(queueKey() || notes.length || net.offline)) return;
  var box = document.getElementById("offline");
  if (!net.offline && !notes.length && !waiting().length && !(box && box.dataset.state) && !marked) return;
  showWaiting();
}
window.addEventListener("storage", function (event) {  // another tab of the same seat
  if (!event.key) return;
  if (event.key === queueKey()) showWaiting();
  else if (event.key === notesKey()) { loadNotes(); showWaiting(); }
});

export function networkLost() { net.offline = true; showWaiting(); }
export function networkBack() { if (net.offline) { net.offline = false; showWaiting(); } }

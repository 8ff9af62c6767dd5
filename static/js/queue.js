// When the Wi-Fi drops: where a phone keeps its waiting taps.
// On a phone's own page (/t/CODE/me), a tap to /act/<kind> or /undo/<id> that cannot reach
// the server is kept in localStorage ("tc-waiting:CODE:SEAT": that table and seat only), in
// order, with its action id, address and form fields. flush.js sends them once the
// connection is back; banner.js says what waits and what became of it.

var WAIT_MS = 10 * 60 * 1000, FORGET_MS = 24 * 3600 * 1000;
export var QUEUE_PREFIX = "tc-waiting:";

// The connection as this page knows it, and whether waiting taps are on their way now.
export var net = { offline: false, flushing: false };

var memory = {}, cachedKey = null;

export function onHostPage() { return /^\/t\/[^/]+\/(host|tablet)\/?$/.test(location.pathname); }
export function queueKey() {
  // The seat is read once: a removed seat's page has no section.me, and keeps its queue's key.
  if (cachedKey) return cachedKey;
  var found = /^\/t\/([^/]+)\/me\/?$/.exec(location.pathname);
  var me = document.querySelector("#live-body section.me[data-seat]");
  if (found && me && me.dataset.seat) cachedKey = QUEUE_PREFIX + found[1].toUpperCase() + ":" + me.dataset.seat;
  return cachedKey;
}
// No storage (private mode, full): the queue lives in this page only, and says nothing less.
var storageFailed = false;
export function readQueue(key) {
  if (storageFailed) return (memory[key] || []).slice();
  try {
    var list = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (e) { return (memory[key] || []).slice(); }
}
export function writeQueue(key, list) {
  memory[key] = list.slice();
  try {
    if (list.length) localStorage.setItem(key, JSON.stringify(list));
    else localStorage.removeItem(key);
  } catch (e) { storageFailed = true; }
}
export function waiting() { var key = queueKey(); return key ? readQueue(key) : []; }

// A tap this page may keep: a POST from the phone's own page to its table's act or undo.
export function keepable(config) {
  var key = queueKey();
  if (!key || !config || config.verb !== "post") return null;
  var url;
  try { url = new URL(config.path, location.href); } catch (e) { return null; }
  var code = key.split(":")[1], found = /^\/t\/([^/]+)\/(act\/[^/]+|undo\/\d+)$/.exec(url.pathname);
  return url.origin === location.origin && found && found[1].toUpperCase() === code ? key : null;
}
export function entryFrom(config) {
  var params = [], submitter = config.triggeringEvent && config.triggeringEvent.submitter;
  config.formData.forEach(function (value, name) { if (typeof value === "string") params.push([name, value]); });
  var id = (params.filter(function (p) { return p[0] === "action_id"; })[0] || [])[1];
  var elt = submitter || config.elt;
  var label = elt ? (elt.getAttribute("aria-label") || elt.textContent || "").replace(/\s+/g, " ").trim() : "";
  return { id: id, verb: "post", url: new URL(config.path, location.href).pathname, params: params,
           csrf: (config.headers && config.headers["X-CSRF-Token"]) || "", label: label.slice(0, 80), at: Date.now() };
}
// Added once (a resent id is the same tap).
export function addEntry(key, entry) {
  var list = readQueue(key);
  if (!list.some(function (e) { return e.id === entry.id; })) list.push(entry);
  writeQueue(key, list);
}
export function forget(key, id) { writeQueue(key, readQueue(key).filter(function (e) { return e.id !== id; })); }
export function named(entry) { return entry.label ? "“" + entry.label + "”" : "A tap"; }
export function taps(n) { return n + (n === 1 ? " tap" : " taps"); }

// Taps that waited too long are taken out; -> {fresh, dropped}.
export function takeStale(key) {
  var list = readQueue(key), now = Date.now();
  var fresh = list.filter(function (e) { return now - (e.at || 0) < WAIT_MS; });
  if (fresh.length === list.length) return { fresh: fresh, dropped: [] };
  writeQueue(key, fresh);
  return { fresh: fresh, dropped: list.filter(function (e) { return fresh.indexOf(e) < 0; }) };
}

// Other tables' lists under `prefix` (queues, notes) are forgotten after a day; `current`,
// this page's own, is kept.
export function forgetOld(prefix, current) {
  try {
    for (var i = localStorage.length - 1; i >= 0; i--) {
      var key = localStorage.key(i);
      if (!key || key.indexOf(prefix) !== 0 || key === current) continue;
      var list = readQueue(key).filter(function (e) { return Date.now() - (e.at || 0) < FORGET_MS; });
      writeQueue(key, list);
    }
  } catch (e) { /* no storage */ }
}

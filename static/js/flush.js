// When the Wi-Fi drops: keeping a phone's tap, and sending it once the connection
// is back. A kept tap's control says "waiting for the table…" (banner.js). Once the
// connection is back (the "online" event, the stream reopening, the page loading or waking,
// a retry every few seconds), the page first fetches the table as it is now, then sends the
// waiting taps one at a time, each with its own action id: the server applies a resent id
// once, and refuses a stale step with a sentence, shown in the banner until the person taps
// OK. A tap waits 10 minutes at most, and never into the next game.

import { net, queueKey, readQueue, writeQueue, waiting, keepable, entryFrom, addEntry, forget,
         named, taps, takeStale, forgetOld, QUEUE_PREFIX } from "./queue.js";
import { note, showWaiting, networkLost, networkBack, loadNotes, notesKey, NOTES_PREFIX } from "./banner.js";
import { shown, refreshLive, morphIn } from "./live.js";
import { ownTapBegan, ownTapEnded } from "./cue.js";

var SEND_MS = 15000, RETRY_MS = 5000;
var CARRIED_KEY = "tc-waiting-notes";  // sessionStorage: notes going with the page to the next table

function keep(key, entry) {
  addEntry(key, entry);
  showWaiting();
}
// Waiting too long, or into the next game: dropped, with a note.
function dropStale(key) {
  var taken = takeStale(key);
  taken.dropped.forEach(function (e) {
    note("dropped", named(e) + " waited more than 10 minutes for a connection, so it was not sent. Tap again if it still holds.");
  });
  return taken.fresh;
}
function movedOn() { return !!document.querySelector("#live-body .night-next, #live-body a[data-follow]"); }
function dropForNextGame(key) {
  var list = readQueue(key);
  if (!list.length || !movedOn()) return false;
  writeQueue(key, []);
  var text = "The table moved on to the next game, so " + taps(list.length) + " made without a connection " +
    (list.length === 1 ? "was" : "were") + " not sent.";
  // The page is on its way to the next table (data-follow): the note goes with it, this tab only.
  var following = !!document.querySelector("#live-body a[data-follow]");
  note("dropped", text, following);
  if (following) {
    try { sessionStorage.setItem(CARRIED_KEY, JSON.stringify([text])); } catch (e) { /* shown here only */ }
  }
  return true;
}

// Step of htmx:beforeRequest (main.js). Keep a tap: at once while the phone knows it is
// offline or earlier taps still wait (so the order holds; the request is then not sent),
// else when its request fails to get through.
export function keepStep(event) {
  var config = event.detail.requestConfig, key = keepable(config), xhr = event.detail.xhr;
  if (!key) return;
  var entry = entryFrom(config);
  if (!entry.id) return;
  if (navigator.onLine === false || net.flushing || readQueue(key).length) {
    event.preventDefault();
    if (navigator.onLine === false) net.offline = true;
    keep(key, entry);
    flushSoon();
    return;
  }
  xhr.tcEntry = entry;
  if (!xhr.timeout) xhr.timeout = SEND_MS;  // a dead Wi-Fi can hang a request for minutes
  var failed = function () {
    if (xhr.tcKept) return;
    xhr.tcKept = true;
    net.offline = true;
    keep(key, entry);
  };
  xhr.addEventListener("error", failed);
  xhr.addEventListener("timeout", failed);
}
// Step of htmx:afterRequest (main.js): any answer from the server means the connection is there.
export function answeredStep(event) {
  if (event.detail.xhr && event.detail.xhr.status) networkBack();
}

// Catch up first: the page's own refetch of the live fragment (its answer is swapped by
// htmx as on waking); resolves true once the server answered, false if it could not.
function catchUp() {
  return new Promise(function (resolve) {
    var live = document.getElementById("live-body");
    if (!live || !window.htmx) { resolve(true); return; }
    var timer = setTimeout(function () { done(false); }, SEND_MS);
    function mine(event) {
      var d = event.detail;
      return d && d.elt && d.elt.id === "live-body" && d.requestConfig && d.requestConfig.verb === "get";
    }
    function loaded(event) { if (mine(event)) done(event.detail.xhr.status < 500); }
    function failed(event) { if (mine(event)) done(false); }
    function done(ok) {
      clearTimeout(timer);
      document.removeEventListener("htmx:afterOnLoad", loaded);
      document.removeEventListener("htmx:sendError", failed);
      document.removeEventListener("htmx:timeout", failed);
      resolve(ok);
    }
    // An aborted fetch (a newer refresh replaced it) is neither: the newer one answers.
    document.addEventListener("htmx:afterOnLoad", loaded);
    document.addEventListener("htmx:sendError", failed);
    document.addEventListener("htmx:timeout", failed);
    // One already on its way ("online" asks for one too) is the one to wait for.
    if (!live.classList.contains("htmx-request")) htmx.trigger(live, "refresh");
  });
}

// One waiting tap, as its form would have sent it. -> {kind: applied|refused|network|later}
function send(entry) {
  var body = new URLSearchParams();
  entry.params.forEach(function (p) { body.append(p[0], p[1]); });
  var headers = { "HX-Request": "true", "HX-Target": "live-body", "HX-Current-URL": location.href };
  if (entry.csrf) headers["X-CSRF-Token"] = entry.csrf;
  var controller = window.AbortController ? new AbortController() : null;
  var timer = controller && setTimeout(function () { controller.abort(); }, SEND_MS);
  return fetch(entry.url, { method: "POST", body: body, headers: headers, credentials: "same-origin",
                            cache: "no-store", signal: controller ? controller.signal : undefined })
    .then(function (response) {
      return response.text().then(function (text) {
        var status = response.status;
        if (status >= 200 && status < 300) return { kind: "applied", html: text };
        if (status >= 500 || status === 408 || status === 429) return { kind: "later" };
        var doc = new DOMParser().parseFromString(text, "text/html");
        var said = doc.querySelector("#live-body > p.error, p.error, .toast-message, .lead");
        return { kind: "refused", text: said ? said.textContent.trim() : "The table refused it." };
      });
    }, function () { return { kind: "network" }; })
    .then(function (result) { if (timer) clearTimeout(timer); return result; });
}
// An applied tap's answer is the live fragment at the newest version: morphed in, unless
// the stream already brought something newer.
function showAnswer(html) {
  var live = document.getElementById("live-body");
  var found = /data-version="(\d+)"/.exec(html || "");
  if (!live || !window.htmx || !found || shown() >= parseInt(found[1], 10)) return;
  ownTapBegan();  // this page's own tap: noted, never cued
  try { morphIn(live, html); }
  catch (e) { refreshLive(); }
  finally { ownTapEnded(); }
}

// A page on its way out sends nothing: its answers would be lost with it (the next page
// would send the same taps again, harmlessly, but the outcome would not be shown).
var leaving = false, leavingTimer = null;
window.addEventListener("beforeunload", function () {
  leaving = true;
  clearTimeout(leavingTimer);
  leavingTimer = setTimeout(function () { leaving = false; }, 5000);  // it stayed after all
});
window.addEventListener("pagehide", function () { leaving = true; });
export function pageShown() { leaving = false; }

function flush() {
  var key = queueKey();
  if (!key || net.flushing || leaving) return;
  if (!dropStale(key).length) { showWaiting(); return; }
  net.flushing = true;
  showWaiting();
  var applied = 0;
  function finish() {
    net.flushing = false;
    if (applied) note("ok", (applied === 1 ? "The tap" : "The " + applied + " taps") + " made without a connection reached the table.");
    showWaiting();
  }
  function next() {
    var list = dropStale(key);
    if (!list.length || dropForNextGame(key)) return finish();
    var entry = list[0];
    ownTapBegan();
    send(entry).then(function (result) {
      ownTapEnded();
      if (result.kind === "network" || result.kind === "later") {
        if (result.kind === "network") net.offline = true;
        return finish();  // kept: the next try sends it again, with the same id
      }
      networkBack();
      forget(key, entry.id);
      if (result.kind === "applied") { applied += 1; showAnswer(result.html); }
      else note("refused", named(entry) + " was not done: " + result.text);
      next();
    });
  }
  catchUp().then(function (ok) {
    if (!ok) { net.offline = true; return finish(); }
    networkBack();
    if (dropForNextGame(key)) return finish();
    next();
  });
}
var flushTimer = null;
export function flushSoon() {
  if (flushTimer || navigator.onLine === false) return;
  flushTimer = setTimeout(function () { flushTimer = null; flush(); }, 0);
}
// The "online" event's step (main.js).
export function backOnline() { net.offline = false; showWaiting(); flushSoon(); }

window.addEventListener("offline", networkLost);
document.addEventListener("htmx:sseOpen", function () { networkBack(); flushSoon(); });
setInterval(function () { if (waiting().length) { showWaiting(); flushSoon(); } }, RETRY_MS);

// On load (main.js): forget other tables' old lists, show the notes still waiting for OK
// and those that came along from the last table, then send what waits.
export function start() {
  forgetOld(QUEUE_PREFIX, queueKey());
  forgetOld(NOTES_PREFIX, notesKey());
  loadNotes();
  try {
    var carried = JSON.parse(sessionStorage.getItem(CARRIED_KEY) || "[]");
    sessionStorage.removeItem(CARRIED_KEY);
    carried.forEach(function (text) { note("dropped", text); });
  } catch (e) { /* none */ }
  if (navigator.onLine === false) net.offline = true;
  var key = queueKey();
  if (key && dropForNextGame(key)) return showWaiting();
  showWaiting();
  flushSoon();
}

// Table Companion's own script: action ids, live changes, keep screen on, the rules tray.
(function () {
  "use strict";

  function randomId() {
    // getRandomValues works on plain-http LAN pages, where crypto.randomUUID does not.
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  // Every change carries an id made here, so a resent tap is applied once by the server.
  // A form whose hx-post is empty (companion/forms.py writes its address once, in `action`)
  // posts there: htmx took the empty address for this page's (a button's formaction stands).
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.tagName === "FORM" && elt.getAttribute("hx-post") === "" && elt.getAttribute("action")
        && event.detail.path === location.href) {
      event.detail.path = elt.getAttribute("action");
    }
    if (event.detail.verb === "post" && !event.detail.parameters.action_id) {
      event.detail.parameters.action_id = randomId();
    }
  });

  // Failed requests (server down, Wi-Fi gone) say so instead of silently doing nothing.
  function toast(text) {
    var box = document.getElementById("toast");
    if (!box) return;
    box.innerHTML = "";
    var p = document.createElement("p");
    p.className = "toast-message";
    p.textContent = text;
    box.appendChild(p);
  }
  // A seat's own tap that found no connection is kept (below, issue 38); anything else says
  // it needs one. A fetch that failed (waking, the rules) is only the banner's news.
  document.addEventListener("htmx:sendError", function (event) {
    var xhr = event.detail.xhr, config = event.detail.requestConfig;
    networkLost();
    if ((xhr && xhr.tcEntry) || !config || config.verb === "get") return;
    toast(onHostPage()
      ? "No connection to the table. The host's steps need the host's device connected: nothing was saved. Try again once it is back."
      : "No connection to the table. That step is not kept to send later (deals and draws need the connection): nothing was saved. Try again once the phone is back.");
  });
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr.status >= 500) toast("The server could not save that. Nothing was lost; try again.");
  });

  // --- When the Wi-Fi drops (issue 38) ---------------------------------------------------
  // On a phone's own page (/t/CODE/me), a tap to /act/<kind> or /undo/<id> that cannot reach
  // the server is kept in localStorage ("tc-waiting:CODE:SEAT": that table and seat only), in
  // order, with its action id, address and form fields, and its control says "waiting for
  // the table…". Once the connection is back (the "online" event, the stream reopening, the
  // page loading or waking, a retry every few seconds), the page first fetches the table as it
  // is now, then sends the waiting taps one at a time, each with its own action id: the server
  // applies a resent id once, and refuses a stale step with a sentence, shown in the banner
  // until the person taps OK. A tap waits 10 minutes at most, and never into the next game.
  var WAIT_MS = 10 * 60 * 1000, FORGET_MS = 24 * 3600 * 1000, SEND_MS = 15000, RETRY_MS = 5000;
  var QUEUE_PREFIX = "tc-waiting:", NOTES_KEY = "tc-waiting-notes";
  var flushing = false, offline = false, notes = [], memory = {}, cachedKey = null;

  function onHostPage() { return /^\/t\/[^/]+\/(host|tablet)\/?$/.test(location.pathname); }
  function queueKey() {
    // The seat is read once: a removed seat's page has no section.me, and keeps its queue's key.
    if (cachedKey) return cachedKey;
    var found = /^\/t\/([^/]+)\/me\/?$/.exec(location.pathname);
    var me = document.querySelector("#live-body section.me[data-seat]");
    if (found && me && me.dataset.seat) cachedKey = QUEUE_PREFIX + found[1].toUpperCase() + ":" + me.dataset.seat;
    return cachedKey;
  }
  // No storage (private mode, full): the queue lives in this page only, and says nothing less.
  var storageFailed = false;
  function readQueue(key) {
    if (storageFailed) return (memory[key] || []).slice();
    try {
      var list = JSON.parse(localStorage.getItem(key) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) { return (memory[key] || []).slice(); }
  }
  function writeQueue(key, list) {
    memory[key] = list.slice();
    try {
      if (list.length) localStorage.setItem(key, JSON.stringify(list));
      else localStorage.removeItem(key);
    } catch (e) { storageFailed = true; }
  }
  function waiting() { var key = queueKey(); return key ? readQueue(key) : []; }

  // A tap this page may keep: a POST from the phone's own page to its table's act or undo.
  function keepable(config) {
    var key = queueKey();
    if (!key || !config || config.verb !== "post") return null;
    var url;
    try { url = new URL(config.path, location.href); } catch (e) { return null; }
    var code = key.split(":")[1], found = /^\/t\/([^/]+)\/(act\/[^/]+|undo\/\d+)$/.exec(url.pathname);
    return url.origin === location.origin && found && found[1].toUpperCase() === code ? key : null;
  }
  function entryFrom(config) {
    var params = [], submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    config.formData.forEach(function (value, name) { if (typeof value === "string") params.push([name, value]); });
    var id = (params.filter(function (p) { return p[0] === "action_id"; })[0] || [])[1];
    var elt = submitter || config.elt;
    var label = elt ? (elt.getAttribute("aria-label") || elt.textContent || "").replace(/\s+/g, " ").trim() : "";
    return { id: id, verb: "post", url: new URL(config.path, location.href).pathname, params: params,
             csrf: (config.headers && config.headers["X-CSRF-Token"]) || "", label: label.slice(0, 80), at: Date.now() };
  }
  function keep(key, entry) {
    var list = readQueue(key);
    if (!list.some(function (e) { return e.id === entry.id; })) list.push(entry);
    writeQueue(key, list);
    showWaiting();
  }
  function forget(key, id) { writeQueue(key, readQueue(key).filter(function (e) { return e.id !== id; })); }
  function named(entry) { return entry.label ? "“" + entry.label + "”" : "A tap"; }
  function taps(n) { return n + (n === 1 ? " tap" : " taps"); }

  // Waiting too long, or into the next game: dropped, with a note.
  function dropStale(key) {
    var list = readQueue(key), now = Date.now();
    var fresh = list.filter(function (e) { return now - (e.at || 0) < WAIT_MS; });
    if (fresh.length === list.length) return fresh;
    writeQueue(key, fresh);
    list.filter(function (e) { return fresh.indexOf(e) < 0; }).forEach(function (e) {
      note("dropped", named(e) + " waited more than 10 minutes for a connection, so it was not sent. Tap again if it still holds.");
    });
    return fresh;
  }
  function movedOn() { return !!document.querySelector("#live-body .night-next, #live-body a[data-follow]"); }
  function dropForNextGame(key) {
    var list = readQueue(key);
    if (!list.length || !movedOn()) return false;
    writeQueue(key, []);
    var text = "The table moved on to the next game, so " + taps(list.length) + " made without a connection " +
      (list.length === 1 ? "was" : "were") + " not sent.";
    note("dropped", text);
    // The page is on its way to the next table (data-follow): the note goes with it, this tab only.
    if (document.querySelector("#live-body a[data-follow]")) {
      try { sessionStorage.setItem(NOTES_KEY, JSON.stringify([text])); } catch (e) { /* shown here only */ }
    }
    return true;
  }
  function forgetOldTables() {
    try {
      for (var i = localStorage.length - 1; i >= 0; i--) {
        var key = localStorage.key(i);
        if (!key || key.indexOf(QUEUE_PREFIX) !== 0 || key === queueKey()) continue;
        var list = readQueue(key).filter(function (e) { return Date.now() - (e.at || 0) < FORGET_MS; });
        writeQueue(key, list);
      }
    } catch (e) { /* no storage */ }
  }

  // The banner (#offline, role=status): offline or sending, how many taps wait, and what
  // became of them. Notes of refused or dropped taps stay until OK; "reached" ones fade.
  function note(kind, text) {
    notes.push({ kind: kind, text: text });
    if (kind === "ok") setTimeout(function () { notes = notes.filter(function (n) { return n.text !== text; }); showWaiting(); }, 8000);
    showWaiting();
  }
  function renderBanner(list) {
    var box = document.getElementById("offline");
    if (!box) return;
    var line = "";
    var onPhone = !!queueKey();
    if (list.length && flushing && !offline) line = "Back online: sending " + taps(list.length) + " made without a connection…";
    else if (list.length && offline) line = "No connection to the table. " + taps(list.length) + " waiting on this phone: " +
      (list.length === 1 ? "it goes" : "they go") + " out when the connection is back.";
    else if (list.length) line = taps(list.length) + " waiting for the table; trying again…";
    else if (offline && document.getElementById("live-body")) line = onPhone
      ? "No connection to the table. A tap made now waits on this phone until it is back." : "No connection to the table.";
    var state = list.length ? (flushing && !offline ? "sending" : "waiting") : line ? "offline" : notes.length ? "done" : "";
    var signature = JSON.stringify([line, notes]);
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
  function showWaiting() {
    var list = waiting();
    renderBanner(list);
    markControls(list);
  }
  ["htmx:afterSettle", "DOMContentLoaded"].forEach(function (name) {
    document.addEventListener(name, function () { if (queueKey() || notes.length || offline) showWaiting(); });
  });
  // After a stream message only while there is something to show: with no tap waiting, no
  // note and no control marked, the banner and the controls are as they were (a message
  // never adds a waiting tap: this page's own taps and another tab's "storage" do).
  document.addEventListener("tc:live", function () {
    if (!(queueKey() || notes.length || offline)) return;
    var box = document.getElementById("offline");
    if (!offline && !notes.length && !waiting().length && !(box && box.dataset.state) && !marked) return;
    showWaiting();
  });
  window.addEventListener("storage", function (event) {  // another tab of the same seat
    if (event.key && event.key === queueKey()) showWaiting();
  });

  function networkLost() { offline = true; showWaiting(); }
  function networkBack() { if (offline) { offline = false; showWaiting(); } }

  // Keep a tap: at once while the phone knows it is offline or earlier taps still wait (so
  // the order holds), else when its request fails to get through.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig, key = keepable(config), xhr = event.detail.xhr;
    if (!key) return;
    var entry = entryFrom(config);
    if (!entry.id) return;
    if (navigator.onLine === false || flushing || readQueue(key).length) {
      event.preventDefault();
      if (navigator.onLine === false) offline = true;
      keep(key, entry);
      flushSoon();
      return;
    }
    xhr.tcEntry = entry;
    if (!xhr.timeout) xhr.timeout = SEND_MS;  // a dead Wi-Fi can hang a request for minutes
    var failed = function () {
      if (xhr.tcKept) return;
      xhr.tcKept = true;
      offline = true;
      keep(key, entry);
    };
    xhr.addEventListener("error", failed);
    xhr.addEventListener("timeout", failed);
  });
  // Any answer from the server means the connection is there.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status) networkBack();
  });

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
    ownTaps += 1;  // this page's own tap: noted, never cued
    try { htmx.swap(live, html, { swapStyle: "morph:outerHTML" }, { contextElement: live }); }
    catch (e) { refreshLive(); }
    finally { ownTaps = Math.max(0, ownTaps - 1); }
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
  window.addEventListener("pageshow", function () { leaving = false; });

  function flush() {
    var key = queueKey();
    if (!key || flushing || leaving) return;
    if (!dropStale(key).length) { showWaiting(); return; }
    flushing = true;
    showWaiting();
    var applied = 0;
    function finish() {
      flushing = false;
      if (applied) note("ok", (applied === 1 ? "The tap" : "The " + applied + " taps") + " made without a connection reached the table.");
      showWaiting();
    }
    function next() {
      var list = dropStale(key);
      if (!list.length || dropForNextGame(key)) return finish();
      var entry = list[0];
      ownTaps += 1;
      send(entry).then(function (result) {
        ownTaps = Math.max(0, ownTaps - 1);
        if (result.kind === "network" || result.kind === "later") {
          if (result.kind === "network") offline = true;
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
      if (!ok) { offline = true; return finish(); }
      networkBack();
      if (dropForNextGame(key)) return finish();
      next();
    });
  }
  var flushTimer = null;
  function flushSoon() {
    if (flushTimer || navigator.onLine === false) return;
    flushTimer = setTimeout(function () { flushTimer = null; flush(); }, 0);
  }
  window.addEventListener("offline", networkLost);
  window.addEventListener("online", function () { offline = false; showWaiting(); flushSoon(); });
  document.addEventListener("htmx:sseOpen", function () { networkBack(); flushSoon(); });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") flushSoon(); });
  setInterval(function () { if (waiting().length) { showWaiting(); flushSoon(); } }, RETRY_MS);
  document.addEventListener("DOMContentLoaded", function () {
    forgetOldTables();
    try {
      var carried = JSON.parse(sessionStorage.getItem(NOTES_KEY) || "[]");
      sessionStorage.removeItem(NOTES_KEY);
      carried.forEach(function (text) { note("dropped", text); });
    } catch (e) { /* none */ }
    if (navigator.onLine === false) offline = true;
    var key = queueKey();
    if (key && dropForNextGame(key)) return showWaiting();
    showWaiting();
    flushSoon();
  });

  // --- Live changes ------------------------------------------------------------------------
  // A change comes down the stream as the regions (elements with ids) that changed, each
  // morphed into its place by htmx and idiomorph, so what is open, focused or scrolled stays.
  // Two things are the person's, and a morph leaves them be: a fold they opened or closed
  // (the server does not know), and a field from the moment they type in it until its form
  // is sent. Until then, and again after, a field shows what the server says.
  var typed = new WeakSet();
  function fieldOf(el) { return el && el.tagName === "OPTION" ? el.closest("select") || el : el; }
  ["input", "change"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (/^(INPUT|SELECT|TEXTAREA|OPTION)$/.test(event.target.tagName)) typed.add(fieldOf(event.target));
    });
  });
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("summary");
    if (summary && summary.parentElement.tagName === "DETAILS") summary.parentElement.dataset.toggled = "";
  });
  function setUpMorph() {
    if (!window.Idiomorph) return;
    // idiomorph moves kept nodes with the new moveBefore() where a browser has it; Chromium 156
    // crashed the page doing so mid-game, so it uses insertBefore, as in every other browser.
    [Element, Document, DocumentFragment].forEach(function (kind) {
      try { delete kind.prototype.moveBefore; } catch (e) { /* not there */ }
    });
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, el) {
      if (name === "data-toggled") return false;  // the page's own mark, unknown to the server
      if (name === "open" && el.tagName === "DETAILS") return !el.hasAttribute("data-toggled");
      if (name === "value" || name === "checked" || name === "selected") return !typed.has(fieldOf(el));
      return true;
    };
    // A spot a page script fills (Blackmail's 5-second Undo) is the script's, not the server's.
    Idiomorph.defaults.callbacks.beforeNodeMorphed = function (old) {
      return !(old.hasAttribute && old.hasAttribute("data-page-owned"));
    };
  }

  // A form that went through is the server's again: each field it sent that was not typed in
  // since shows the server's value, and the fold holding it closes, unless the fold is a list
  // one goes on reading (data-stay-open: the log, after an Undo in it). A refused form stays
  // as it was, to be fixed in place.
  function formOf(el) {
    return el && (el.tagName === "FORM" ? el : el.closest && el.closest("form"));
  }
  function fields(form) {
    return Array.from(form.elements).filter(function (el) {
      return /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && !/^(hidden|submit|button|reset|image)$/.test(el.type);
    });
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = formOf(event.detail.elt);
    if (!form || event.detail.requestConfig.verb !== "post") return;
    form.tcSent = fields(form);
    form.tcSent.forEach(function (el) { typed.delete(el); });
  });
  // A refusal, or no answer at all: what was sent is the person's again, to fix in place.
  function keepSent(form) {
    (form && form.tcSent || []).forEach(function (el) { typed.add(el); });
    if (form) form.tcSent = null;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr, config = event.detail.requestConfig;
    if (xhr && xhr.status >= 400 && config) keepSent(formOf(config.elt));
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr, config = event.detail.requestConfig, form = config && formOf(config.elt);
    if (!form || !form.tcSent) return;
    if (!xhr || xhr.status < 200 || xhr.status >= 300) return keepSent(form);
    var typedSince = false;
    form.tcSent.forEach(function (el) {
      if (typed.has(el)) { typedSince = true; return; }
      if (el.tagName === "SELECT") Array.from(el.options).forEach(function (o) { o.selected = o.defaultSelected; });
      else if (el.type === "checkbox" || el.type === "radio") el.checked = el.defaultChecked;
      else el.value = el.defaultValue;
    });
    form.tcSent = null;
    var fold = form.isConnected && form.closest("details");
    if (fold && !typedSince && !fold.hasAttribute("data-stay-open")) { fold.open = false; fold.removeAttribute("data-toggled"); }
  });

  function shown() {
    var live = document.getElementById("live-body");
    return live ? parseInt(live.dataset.version, 10) || 0 : 0;
  }
  // The board never goes back in time: an answer older than what the page shows (a fetch that
  // left before a change the stream has brought since) is dropped. A tap whose form the stream
  // already took off the board is answered from the board itself (htmx would find no morph
  // through the gone form, and put a second board inside the first).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var d = event.detail, live = document.getElementById("live-body");
    if (!live || d.target !== live || !d.shouldSwap) return;
    var found = /data-version="(\d+)"/.exec(d.serverResponse || "");
    if (found && shown() > parseInt(found[1], 10)) { d.shouldSwap = false; return; }
    var elt = d.requestConfig && d.requestConfig.elt;
    if (elt && !elt.isConnected && window.htmx) {
      d.shouldSwap = false;
      htmx.swap(live, d.serverResponse, { swapStyle: "morph:outerHTML" }, { contextElement: live });
    }
  });
  // Each message's id is the table's version: a copy not newer than what the page shows (its
  // own tap's answer got there first) leaves the page as it is.
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    if (event.detail.type === "live" && (parseInt(event.detail.lastEventId, 10) || 0) <= shown()) event.preventDefault();
  });
  document.addEventListener("htmx:sseMessage", function (event) {
    var live = document.getElementById("live-body");
    if (event.detail.type !== "live" || !live) return;
    live.dataset.version = event.detail.lastEventId;
    var error = live.querySelector(":scope > p.error");  // a refusal belongs to the state it refused
    if (error) error.remove();
    document.dispatchEvent(new CustomEvent("tc:live"));  // for the turn cue and the offline banner
  });
  // A region with no place on this page: said (the browser tests fail on it), and the board fetched whole.
  document.addEventListener("htmx:oobErrorNoTarget", function (event) {
    if (window.console) console.error("Table Companion: a live region had no place on this page: " + (event.detail.content && event.detail.content.id));
    refreshLive();
  });

  // A page that comes back to the foreground fetches its state once: its stream may have
  // died quietly while the phone slept.
  function refreshLive() {
    var live = document.getElementById("live-body");
    if (live && window.htmx) htmx.trigger(live, "refresh");
  }

  // "Keep screen on": the Wake Lock API where the browser offers it (https or localhost),
  // else a muted, looping inline video, which phones treat as something being watched (the
  // NoSleep.js technique; the video is served from static/). The switch's state is kept in
  // localStorage, so a reload or the next table keeps the choice; on by default.
  var AWAKE_KEY = "tc-keep-screen-on";
  var wakeLock = null, wakeVideo = null;
  function awakeWanted() {
    try { return localStorage.getItem(AWAKE_KEY) !== "off"; } catch (e) { return true; }
  }
  function rememberAwake(on) {
    try { localStorage.setItem(AWAKE_KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
  }
  function awakeStatus(text) {
    var status = document.getElementById("keep-awake-status");
    if (status) status.textContent = text;
  }
  function videoAwake() {
    if (!wakeVideo) {
      wakeVideo = document.createElement("video");
      wakeVideo.muted = true;
      wakeVideo.loop = true;
      wakeVideo.setAttribute("muted", "");
      wakeVideo.setAttribute("playsinline", "");
      wakeVideo.setAttribute("aria-hidden", "true");
      wakeVideo.className = "keep-awake-video";
      var base = document.body.dataset.static || "/static/";
      [["keep-awake.mp4", "video/mp4"], ["keep-awake.webm", "video/webm"]].forEach(function (file) {
        var source = document.createElement("source");
        source.src = base + file[0];
        source.type = file[1];
        wakeVideo.appendChild(source);
      });
      document.body.appendChild(wakeVideo);
    }
    var playing = wakeVideo.play();
    if (playing && playing.then) {
      playing.then(function () { awakeStatus(""); })
        .catch(function () { awakeStatus("Tap anywhere once to start it."); });
    }
  }
  function keepAwake() {
    if (!document.getElementById("keep-awake") || !awakeWanted()) return;
    if (document.visibilityState !== "visible") return;
    if ("wakeLock" in navigator && window.isSecureContext) {
      if (wakeLock && !wakeLock.released) return;
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        awakeStatus("");
      }).catch(videoAwake);
    } else {
      videoAwake();
    }
  }
  function letSleep() {
    if (wakeLock) { wakeLock.release().catch(function () {}); wakeLock = null; }
    if (wakeVideo) wakeVideo.pause();
    awakeStatus("");
  }
  function setUpAwakeSwitch() {
    var box = document.getElementById("keep-awake");
    if (!box) return;
    box.checked = awakeWanted();
    box.addEventListener("change", function () {
      rememberAwake(box.checked);
      if (box.checked) keepAwake(); else letSleep();
    });
    keepAwake();
  }
  // A video may need a tap before it plays: the first tap on the page starts it if it is off.
  document.addEventListener("pointerdown", function () {
    if (wakeVideo && wakeVideo.paused && awakeWanted() && document.getElementById("keep-awake")) videoAwake();
  }, true);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { refreshLive(); keepAwake(); }
  });
  window.addEventListener("online", refreshLive);
  window.addEventListener("pageshow", function (event) { if (event.persisted) refreshLive(); });
  document.addEventListener("DOMContentLoaded", setUpAwakeSwitch);
  document.addEventListener("DOMContentLoaded", setUpMorph);

  // Rules links open in the tray over the scoreboard instead of leaving the page.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-help]");
    var tray = document.getElementById("tray");
    if (!link || !tray || !window.htmx) return;
    event.preventDefault();
    htmx.ajax("GET", link.getAttribute("href"), { target: "#tray-body", swap: "innerHTML" }).then(function () {
      if (!tray.open) tray.showModal();
    });
  });

  // Game night: when the night moves on to the next table, this page's board holds a link
  // marked data-follow (night.py). Follow it by itself, so a phone shows the new table with
  // no tap; a page that was away finds it when it loads or catches up. Each link is followed
  // once per tab: a page the server sends back here stays, it does not go round in circles.
  // The host's own "play again" tap is answered with the new table's address (HX-Redirect):
  // while it is on its way, the same page does not set off a second navigation.
  var startingNext = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.closest && event.detail.elt.closest(".night-again")) startingNext = true;
  });
  // Only a refusal lets the page follow again: htmx answers an HX-Redirect before it marks the
  // request successful, and following then cut the host's own navigation short (a flaky test).
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (startingNext && (!xhr || !xhr.status || xhr.status >= 400)) { startingNext = false; followNight(); }
  });
  function goOnce(href) {
    if (startingNext) return;
    var key = "tc-followed:" + href;
    try {
      if (sessionStorage.getItem(key)) return;
      sessionStorage.setItem(key, "1");
    } catch (e) { /* private mode: follow anyway */ }
    window.location.assign(href);
  }
  // A table opened on purpose from the night's page or "Your tables" (?stay) stays put:
  // following is for a page that was open, or left open, when the night moved on.
  var stays = /[?&]stay=/.test(window.location.search);
  function followNight() {
    var link = !stays && document.querySelector("a[data-follow]");
    if (link) goOnce(link.getAttribute("href"));
  }
  // After a stream message (tc:live), a fetched or tapped answer, and on load.
  ["tc:live", "htmx:afterSwap", "DOMContentLoaded"].forEach(function (name) {
    document.addEventListener(name, followNight);
  });

  // The turn cue (issue 24). A phone's own block (section.me), or an element in it marked
  // data-cue, carries data-your-turn="KEY" while it is this seat's go (one key per turn), and
  // data-news='[[key, text], ...]' for what someone else just did to this player. A key first
  // seen after a stream message, or after the page caught up on waking, cues once: a short
  // vibration and, if switched on, a beep
  // (the two switches beside "Keep screen on", remembered on this phone), "Your turn" in the
  // tab title, and the words in the page's polite live region (#announce). Keys on the page
  // when it loads, and keys brought by this page's own tap, are only noted: a reload or your
  // own move never cues. The host page and the table screen have no section.me: no cue.
  var VIBRATE_KEY = "tc-turn-vibrate", SOUND_KEY = "tc-turn-sound";
  var seenCues = {}, ownTaps = 0, plainTitle = null, beeper = null;
  function wanted(key, fallback) {
    try { var v = localStorage.getItem(key); return v ? v === "on" : fallback; } catch (e) { return fallback; }
  }
  function readyBeeper() {
    beeper = beeper || new (window.AudioContext || window.webkitAudioContext)();
    if (beeper.state === "suspended") beeper.resume();
  }
  function beep() {
    try {
      readyBeeper();
      var tone = beeper.createOscillator(), volume = beeper.createGain(), now = beeper.currentTime;
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.25, now);
      volume.gain.exponentialRampToValueAtTime(0.001, now + 0.35);
      tone.connect(volume).connect(beeper.destination);
      tone.start(now);
      tone.stop(now + 0.35);
    } catch (e) { /* no Web Audio: the vibration and the words still say it */ }
  }
  function announce(text) {
    var region = document.getElementById("announce");
    if (!region || !text) return;
    region.textContent = "";  // the same words twice are still news: clear, then say
    setTimeout(function () { region.textContent = text; }, 60);
  }
  function lookForCues(cue) {
    var me = document.querySelector("section.me");
    // The keys may sit on a small element of their own inside the block ([data-cue]): a turn
    // coming then changes it, not the block's tag (Blackmail's _me.html).
    var keys = me && (me.querySelector("[data-cue]") || me);
    if (plainTitle === null) plainTitle = document.title;
    var turn = keys && keys.getAttribute("data-your-turn"), said = [];
    var title = turn ? "Your turn · " + plainTitle : plainTitle;
    if (document.title !== title) document.title = title;
    var news = [];
    try { news = JSON.parse((keys && keys.getAttribute("data-news")) || "[]"); } catch (e) { /* none */ }
    news.forEach(function (item) {
      if (!seenCues["news:" + item[0]]) said.push(item[1]);
      seenCues["news:" + item[0]] = true;
    });
    var newTurn = turn && !seenCues["turn:" + turn];
    if (turn) seenCues["turn:" + turn] = true;
    if (!cue || ownTaps) return;  // at load, or this page's own tap: noted, not cued
    if (newTurn) {
      said.push(keys.getAttribute("data-your-turn-text") || me.getAttribute("data-your-turn-text") || "Your turn.");
      if (wanted(VIBRATE_KEY, true) && navigator.vibrate) navigator.vibrate([150, 80, 150]);
      if (wanted(SOUND_KEY, false)) beep();
    }
    if (said.length) announce(said.join(" "));
  }
  document.addEventListener("tc:live", function () { lookForCues(true); });
  // A tap's form may be gone from the page once answered (htmx's own events then never reach
  // the document): its request itself says when it is done.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var xhr = event.detail.xhr;
    if (event.defaultPrevented) return;  // a tap kept to send later (issue 38): not sent now
    if (!xhr || !event.detail.requestConfig || event.detail.requestConfig.verb !== "post") return;
    ownTaps += 1;
    xhr.addEventListener("loadend", function () { ownTaps = Math.max(0, ownTaps - 1); });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "live-body") return;
    var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    lookForCues(verb !== "post");  // a catch-up fetch (waking, back online) may cue
  });
  function setUpCueSwitches() {
    [[VIBRATE_KEY, "turn-vibrate", true], [SOUND_KEY, "turn-sound", false]].forEach(function (item) {
      var box = document.getElementById(item[1]);
      if (!box) return;
      box.checked = wanted(item[0], item[2]);
      box.addEventListener("change", function () {
        try { localStorage.setItem(item[0], box.checked ? "on" : "off"); } catch (e) { /* private mode */ }
        if (box.checked && item[0] === SOUND_KEY) beep();  // a tap lets the page play sound, and says how it sounds
      });
    });
    lookForCues(false);
  }
  // A browser lets a page start sound only after a tap: any tap readies the beeper.
  document.addEventListener("pointerdown", function () {
    if (!wanted(SOUND_KEY, false) || !document.getElementById("turn-sound")) return;
    try { readyBeeper(); } catch (e) { /* no Web Audio */ }
  }, true);
  document.addEventListener("DOMContentLoaded", setUpCueSwitches);
})();

// Table Companion's own script: action ids, kept sections, live refresh, keep screen on, the rules tray.
(function () {
  "use strict";

  function randomId() {
    // getRandomValues works on plain-http LAN pages, where crypto.randomUUID does not.
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  // Every change carries an id made here, so a resent tap is applied once by the server.
  document.addEventListener("htmx:configRequest", function (event) {
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
  document.addEventListener("htmx:sendError", function () { toast("No connection to the table. Your tap was not saved; try again."); });
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr.status >= 500) toast("The server could not save that. Nothing was lost; try again.");
  });

  // Every swap re-renders the board; it must not close what a player has open or wipe what
  // they are typing. Open <details> and edited fields are keyed by their place in the page
  // and put back after the swap, except the form just submitted (and the section holding
  // it): that one is done and starts fresh, unless the server refused it, or the section
  // is a list one goes on reading (data-stay-open: the log, after an Undo in it).
  // They are put back on htmx:afterSwap, in the same task as the swap itself: waiting for
  // afterSettle (20 ms later, more on a busy phone) showed the new board closed meanwhile,
  // and a tap or a second swap in that gap found it closed (the flaky browser test).
  function keyOf(el, all) {
    var label = el.tagName === "DETAILS"
      ? (el.id || (el.querySelector("summary") || {}).textContent || "")
      : ((el.form && el.form.getAttribute("action")) || "") + "|" + el.name;
    var n = 0;
    for (var i = 0; i < all.length && all[i] !== el; i++) if (all[i].dataset.keepKey === label) n++;
    el.dataset.keepKey = label;
    return label + "#" + n;
  }
  // What a menu shows when nobody touched it: its option marked selected, else its first
  // (so a menu with no marked option is not "changed" and does not blank the new one).
  function selectDefault(select) {
    var marked = Array.from(select.options).find(function (o) { return o.defaultSelected; });
    return marked ? marked.value : (select.options[0] ? select.options[0].value : "");
  }
  // The board never goes back in time: a refresh that left before a tap and comes back after
  // the tap's answer carries an older version, and is dropped (the newer board stays).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var live = event.detail.target;
    if (!live || live.id !== "live-body" || !event.detail.shouldSwap) return;
    var found = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
    var shown = parseInt(live.dataset.version, 10);
    if (found && shown > parseInt(found[1], 10)) event.detail.shouldSwap = false;
  });
  var kept = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var live = event.detail.target;
    if (!live || live.id !== "live-body") return;
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    var refused = event.detail.xhr && event.detail.xhr.status >= 400;  // kept, to be fixed in place
    var submitted = !refused && source && (source.tagName === "FORM" ? source : source.closest && source.closest("form"));
    kept = { open: {}, values: {}, focus: null };
    var details = live.querySelectorAll("details");
    details.forEach(function (d) {
      var k = keyOf(d, details);
      if (d.open && (!(submitted && d.contains(submitted)) || d.hasAttribute("data-stay-open"))) kept.open[k] = true;
    });
    var fields = live.querySelectorAll("input:not([type=hidden]), select, textarea");
    fields.forEach(function (f) {
      var k = keyOf(f, fields);
      if (submitted && f.form === submitted) return;
      var changed = f.type === "checkbox" || f.type === "radio" ? f.checked !== f.defaultChecked
        : f.tagName === "SELECT" ? f.value !== selectDefault(f)
        : f.value !== f.defaultValue;
      if (changed) kept.values[k] = f.type === "checkbox" || f.type === "radio" ? f.checked : f.value;
      if (f === document.activeElement) kept.focus = k;
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var live = event.target;
    if (!kept || !live || live.id !== "live-body" || !live.isConnected) return;
    var restore = kept;
    kept = null;
    var details = live.querySelectorAll("details");
    details.forEach(function (d) { if (restore.open[keyOf(d, details)]) d.open = true; });
    var fields = live.querySelectorAll("input:not([type=hidden]), select, textarea");
    fields.forEach(function (f) {
      var k = keyOf(f, fields);
      if (k in restore.values) {
        if (f.type === "checkbox" || f.type === "radio") f.checked = restore.values[k]; else f.value = restore.values[k];
      }
      if (k === restore.focus) f.focus({ preventScroll: true });
    });
  });
  // A swap that never happened (refused by htmx, detached target) must not leave its
  // snapshot for the next one.
  document.addEventListener("htmx:afterRequest", function () { kept = null; });

  // Live updates. The sse extension keeps the stream open on <main>, which is never swapped;
  // every "changed N" message is read here, straight from the stream, so none can fall in the
  // gap while the board is being swapped. The board re-fetches only when N is newer than what
  // it shows (its own tap's answer and a stream's opening message need no re-fetch), and
  // checks again after every swap.
  // While this page's own tap is on its way, it does not catch up: the stream tells of the
  // tap before its answer arrives, and a refresh landing first would swap the tapped button
  // out, so htmx would drop the tap's answer (and whatever the answer shows, such as an Undo).
  // It catches up when the tap ends, however it ends (loadend follows htmx's own onload);
  // a request that never ended stops counting after TAP_MS, so the page cannot go deaf.
  var newest = 0, taps = [], TAP_MS = 15000;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb !== "post") return;
    var tap = { at: Date.now() };
    taps.push(tap);
    event.detail.xhr.addEventListener("loadend", function () {
      taps = taps.filter(function (other) { return other !== tap; });
      setTimeout(catchUp, 0);
    });
  });
  function tapping() {
    var now = Date.now();
    taps = taps.filter(function (tap) { return now - tap.at < TAP_MS; });
    return taps.length > 0;
  }
  function catchUp() {
    var live = document.getElementById("live-body");
    if (tapping() || !live || !window.htmx) return;
    if (newest > parseInt(live.dataset.version, 10)) htmx.trigger(live, "refresh");
  }
  document.addEventListener("htmx:sseOpen", function (event) {
    // The browser reopens a dropped stream itself and says "open" again: listen only once.
    var source = event.detail.source;
    if (source.tcListening) return;
    source.tcListening = true;
    source.addEventListener("changed", function (message) {
      newest = Math.max(newest, parseInt(message.data, 10) || 0);
      catchUp();
    });
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.elt && event.detail.elt.id === "live-body") catchUp();
  });

  // A page that comes back to the foreground re-fetches its state: nothing missed while asleep.
  function refreshLive() {
    var live = document.getElementById("live-body");
    if (live && window.htmx && !tapping()) htmx.trigger(live, "refresh");
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
})();

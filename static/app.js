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

  // Live changes morph into the page (idiomorph), so what is open, focused or scrolled stays
  // by itself. Two things are the person's until they send them, and a morph leaves them be:
  // a fold they opened or closed (the server does not know), and a field they changed.
  function edited(el) {
    if (el.tagName === "OPTION") el = el.closest("select") || el;
    if (el.tagName === "SELECT") {
      return Array.from(el.options).some(function (o) { return o.selected !== o.defaultSelected; });
    }
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    return (el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.value !== el.defaultValue;
  }
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("summary");
    if (summary && summary.parentElement.tagName === "DETAILS") summary.parentElement.dataset.toggled = "";
  });
  function setUpMorph() {
    if (!window.Idiomorph) return;
    // idiomorph moves kept nodes with the new moveBefore() where a browser has it; Chromium 156
    // crashed the page doing so mid-game (the Age of Assassins browser test, every run), so it
    // uses insertBefore, as in every other browser.
    [Element, Document, DocumentFragment].forEach(function (kind) {
      try { delete kind.prototype.moveBefore; } catch (e) { /* not there */ }
    });
    Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, el) {
      if (name === "data-toggled") return false;  // the page's own mark, unknown to the server
      if (name === "open" && el.tagName === "DETAILS") return !el.hasAttribute("data-toggled");
      if (name === "value" || name === "checked" || name === "selected") return !edited(el);
      return true;
    };
    // A spot a page script fills (Blackmail's 5-second Undo) is the script's, not the server's.
    Idiomorph.defaults.callbacks.beforeNodeMorphed = function (old) {
      return !(old.hasAttribute && old.hasAttribute("data-page-owned"));
    };
  }

  // A form that went through is done: it starts fresh, and the fold holding it closes, unless
  // the fold is a list one goes on reading (data-stay-open: the log, after an Undo in it).
  // A refused one stays as it was, to be fixed in place.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr, source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!xhr || xhr.status >= 400 || !source || event.detail.requestConfig.verb !== "post") return;
    var form = source.tagName === "FORM" ? source : source.closest && source.closest("form");
    if (!form) return;
    form.reset();
    var fold = form.closest("details");
    if (fold && !fold.hasAttribute("data-stay-open")) { fold.open = false; fold.removeAttribute("data-toggled"); }
  });

  function shown() {
    var live = document.getElementById("live-body");
    return live ? parseInt(live.dataset.version, 10) || 0 : 0;
  }
  // The board never goes back in time: an answer older than what the page shows (a fetch
  // that left before a change the stream has brought since) is dropped.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var live = event.detail.target;
    if (!live || live.id !== "live-body" || !event.detail.shouldSwap) return;
    var found = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
    if (found && shown() > parseInt(found[1], 10)) event.detail.shouldSwap = false;
  });

  // The stream (the sse extension keeps it open on <main>) carries each change's parts for
  // this page, with the version as the message id: a copy not newer than what the page shows
  // (its own tap's answer got there first) leaves the page as it is.
  function applyLive(message) {
    var live = document.getElementById("live-body");
    var version = parseInt(message.lastEventId, 10) || 0;
    if (!live || !window.htmx || version <= shown()) return;
    if (message.data.trim()) htmx.swap(live, message.data, { swapStyle: "none" });
    live.dataset.version = String(version);
    document.dispatchEvent(new CustomEvent("tc:live"));  // for the turn cue, at the end
    var error = live.querySelector(":scope > p.error");  // a refusal belongs to the state it refused
    if (error) error.remove();
  }
  document.addEventListener("htmx:sseOpen", function (event) {
    // The browser reopens a dropped stream itself and says "open" again: listen only once.
    var source = event.detail.source;
    if (source.tcListening) return;
    source.tcListening = true;
    source.addEventListener("live", applyLive);
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
  function followNight() {
    var link = document.querySelector("a[data-follow]");
    if (link) goOnce(link.getAttribute("href"));
  }
  // After a stream message (tc:live), a fetched or tapped answer, and on load.
  ["tc:live", "htmx:afterSwap", "DOMContentLoaded"].forEach(function (name) {
    document.addEventListener(name, followNight);
  });

  // The turn cue (issue 24). A phone's own block (section.me) carries data-your-turn="KEY"
  // while it is this seat's go (one key per turn), and data-news='[[key, text], ...]' for what
  // someone else just did to this player. A key first seen after a stream message, or after
  // the page caught up on waking, cues once: a short vibration and, if switched on, a beep
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
    if (plainTitle === null) plainTitle = document.title;
    var turn = me && me.getAttribute("data-your-turn"), said = [];
    document.title = turn ? "Your turn · " + plainTitle : plainTitle;
    var news = [];
    try { news = JSON.parse((me && me.getAttribute("data-news")) || "[]"); } catch (e) { /* none */ }
    news.forEach(function (item) {
      if (!seenCues["news:" + item[0]]) said.push(item[1]);
      seenCues["news:" + item[0]] = true;
    });
    var newTurn = turn && !seenCues["turn:" + turn];
    if (turn) seenCues["turn:" + turn] = true;
    if (!cue || ownTaps) return;  // at load, or this page's own tap: noted, not cued
    if (newTurn) {
      said.push(me.getAttribute("data-your-turn-text") || "Your turn.");
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

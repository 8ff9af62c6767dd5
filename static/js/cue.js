// The turn cue. The cue element in a phone's own block (section.me > [data-cue], written by
// tables/_cue.html) carries data-your-turn="KEY" while it is this seat's go (one key per
// turn), and data-news='[[key, text], ...]' for what someone else just did to this player.
// A key first seen after a stream message, or after the page caught up on waking, cues once:
// a short vibration and, if switched on, a beep (the two switches beside "Keep screen on",
// remembered on this phone), "Your turn" in the tab title, and the words in the page's
// polite live region (#announce). Keys on the page when it loads, and keys brought by this
// page's own tap, are only noted: a reload or your own move never cues. The host page and
// the table screen have no section.me: no cue.

var VIBRATE_KEY = "tc-turn-vibrate", SOUND_KEY = "tc-turn-sound";
var seenCues = {}, ownTaps = 0, plainTitle = null, beeper = null;

// This page's own taps on their way (a sent waiting tap too, flush.js): what they bring is noted, not cued.
export function ownTapBegan() { ownTaps += 1; }
export function ownTapEnded() { ownTaps = Math.max(0, ownTaps - 1); }

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
// After a stream message (main.js: cue true), after a swap of the board, and on load (false).
export function lookForCues(cue) {
  var me = document.querySelector("section.me");
  // The keys sit on a small element of their own: a turn coming changes it, not the block's tag.
  var keys = me && me.querySelector("[data-cue]");
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
// Step of htmx:beforeRequest (main.js), after the offline queue's: a tap it kept to send
// later is not sent now (the event is cancelled), so it is no request of this page's. A
// tap's form may be gone from the page once answered (htmx's own events then never reach
// the document): its request itself says when it is done.
export function sendStep(event) {
  var xhr = event.detail.xhr;
  if (event.defaultPrevented) return;
  if (!xhr || !event.detail.requestConfig || event.detail.requestConfig.verb !== "post") return;
  ownTapBegan();
  xhr.addEventListener("loadend", ownTapEnded);
}
// Step of htmx:afterSwap (main.js).
export function swappedStep(event) {
  var target = event.detail.target;
  if (!target || target.id !== "live-body") return;
  var verb = event.detail.requestConfig && event.detail.requestConfig.verb;
  lookForCues(verb !== "post");  // a catch-up fetch (waking, back online) may cue
}
// On load (main.js).
export function setUpCueSwitches() {
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

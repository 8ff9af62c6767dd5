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
// Also on waking (main.js): a wake lock is let go while the page is hidden.
export function keepAwake() {
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
// On load (main.js).
export function setUpAwakeSwitch() {
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

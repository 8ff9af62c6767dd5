// Table Companion's page script: action ids, the offline queue, live changes, what a morph
// leaves be, keep screen on, following the night, the turn cue, the rules tray.
//
// Loaded as a module after the vendored htmx, its SSE extension and idiomorph (deferred
// classic scripts, base.html): it runs once the page is parsed and before DOMContentLoaded,
// when htmx boots and opens the stream, so every listener below is in place by then.
//
// Each module keeps its own listeners where no other depends on their order. Where the order
// matters (a tap kept for later is not counted as sent; a refused form keeps its fields
// before the board is swapped), the one listener here calls each module's step in turn.

import "./actions.js";
import * as flush from "./flush.js";
import * as banner from "./banner.js";
import * as live from "./live.js";
import * as morph from "./morph.js";
import * as awake from "./awake.js";
import * as night from "./night.js";
import * as cue from "./cue.js";
import "./tray.js";

// One listener's steps, in order. A step that throws is reported as any uncaught error is,
// and the steps after it still run, as separate listeners would.
function inTurn(steps) {
  return function (event) {
    steps.forEach(function (step) {
      try { step(event); } catch (error) { setTimeout(function () { throw error; }, 0); }
    });
  };
}

document.addEventListener("htmx:beforeRequest", inTurn([
  flush.keepStep,   // may cancel the request: the tap waits on the phone
  morph.sendStep,
  night.sendStep,
  cue.sendStep,     // reads whether the tap was kept
]));
document.addEventListener("htmx:beforeSwap", inTurn([morph.swapStep, live.swapStep]));
document.addEventListener("htmx:afterRequest", inTurn([flush.answeredStep, morph.answeredStep, night.answeredStep]));
document.addEventListener("htmx:afterSwap", inTurn([night.followNight, cue.swappedStep]));
document.addEventListener("htmx:afterSettle", banner.refreshBanner);
// A stream's message (live.js).
document.addEventListener("tc:live", inTurn([banner.afterLive, night.followNight, function () { cue.lookForCues(true); }]));

// Waking, the Wi-Fi back, a page brought back from the browser's cache: the board is
// fetched once (its stream may have died quietly while the phone slept) and waiting taps go.
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState !== "visible") return;
  inTurn([flush.flushSoon, live.refreshLive, awake.keepAwake])();
});
window.addEventListener("online", inTurn([flush.backOnline, live.refreshLive]));
window.addEventListener("pageshow", inTurn([flush.pageShown, function (event) { if (event.persisted) live.refreshLive(); }]));

document.addEventListener("DOMContentLoaded", inTurn([
  banner.refreshBanner,
  flush.start,
  awake.setUpAwakeSwitch,
  morph.setUpMorph,
  night.followNight,
  cue.setUpCueSwitches,
]));

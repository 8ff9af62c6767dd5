// Live changes: a change comes down the stream (htmx's SSE extension) as the regions
// (elements with ids) that changed, each morphed into its place by htmx and idiomorph
// (morph.js says what a morph leaves be). The page's #live-body carries data-version, the
// table's version it shows; the board never goes back in time.
//
// The stream's listeners are registered as this module runs, before htmx boots on
// DOMContentLoaded and opens the stream: its first message is already checked.

export function shown() {
  var live = document.getElementById("live-body");
  return live ? parseInt(live.dataset.version, 10) || 0 : 0;
}

// A page that comes back to the foreground fetches its state once: its stream may have
// died quietly while the phone slept.
export function refreshLive() {
  var live = document.getElementById("live-body");
  if (live && window.htmx) htmx.trigger(live, "refresh");
}

// A whole live fragment, morphed over the board.
export function morphIn(live, html) {
  htmx.swap(live, html, { swapStyle: "morph:outerHTML" }, { contextElement: live });
}

// Step of htmx:beforeSwap (main.js). An answer older than what the page shows (a fetch that
// left before a change the stream has brought since) is dropped. A tap whose form the stream
// already took off the board is answered from the board itself (htmx would find no morph
// through the gone form, and put a second board inside the first).
export function swapStep(event) {
  var d = event.detail, live = document.getElementById("live-body");
  if (!live || d.target !== live || !d.shouldSwap) return;
  var found = /data-version="(\d+)"/.exec(d.serverResponse || "");
  if (found && shown() > parseInt(found[1], 10)) { d.shouldSwap = false; return; }
  var elt = d.requestConfig && d.requestConfig.elt;
  if (elt && !elt.isConnected && window.htmx) {
    d.shouldSwap = false;
    morphIn(live, d.serverResponse);
  }
}

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
  document.dispatchEvent(new CustomEvent("tc:live"));  // for the turn cue, the offline banner, the night (main.js)
});
// A region with no place on this page: said (the browser tests fail on it), and the board fetched whole.
document.addEventListener("htmx:oobErrorNoTarget", function (event) {
  if (window.console) console.error("Table Companion: a live region had no place on this page: " + (event.detail.content && event.detail.content.id));
  refreshLive();
});

// Live changes: a change comes down the page's stream (opened and reopened by htmx's SSE
// extension) as one `live` message of the regions (elements with ids) that changed, in
// htmx's out-of-band markup: each region morphed into its place by idiomorph (morph.js says
// what a morph leaves be), a list's new items put at its start or end, a gone item deleted.
// The page applies them itself: htmx's own out-of-band swap, with its events and settling
// per region, cost a phone a third more per message (docs/performance.md). The page's
// #live-body carries data-version, the table's version it shows; it never goes back in time.

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

// A region morphed in place; what htmx must set up afterwards goes on `touched`: what the morph
// put in new, and an element whose hx- attributes changed. (htmx going over every morphed
// region whole took a phone 0.5–1.2 ms of its 5–9 ms a message: docs/performance.md.)
function morphRegion(target, region, touched) {
  var decide = Idiomorph.defaults.callbacks.beforeAttributeUpdated;  // morph.js: what stays the person's
  Idiomorph.morph(target, region, {
    morphStyle: "outerHTML",
    callbacks: {
      afterNodeAdded: function (node) { if (node.nodeType === 1) touched.push(node); },
      beforeAttributeUpdated: function (name, el, action) {
        var update = decide(name, el, action);
        if (update !== false && /^(data-)?(hx-|sse-)/.test(name)) touched.push(el);
        return update;
      },
    },
  });
}

// One region of a message, found by its id (a list by the id its swap names) and changed in
// place; false if it has no place here, which is said (the browser tests fail on it).
function applyRegion(region, touched) {
  if (region.tagName === "TEMPLATE") region = region.content.firstElementChild;  // a table's row
  var swap = region.getAttribute("hx-swap-oob"), into = swap.split(":#");
  region.removeAttribute("hx-swap-oob");
  var target = document.getElementById(into[1] || region.id);
  if (!target) {
    if (window.console) console.error("Table Companion: a live region had no place on this page: " + (into[1] || region.id));
    return false;
  }
  if (swap === "delete") target.remove();
  else if (swap === "morph") morphRegion(target, region, touched);
  else {
    var items = Array.from(region.children);
    if (into[0] === "afterbegin") target.prepend.apply(target, items);
    else target.append.apply(target, items);
    touched.push.apply(touched, items);
  }
  return true;
}

// Each message's id is the table's version: a copy not newer than what the page shows (its
// own tap's answer got there first) leaves the page as it is. A region with no place on this
// page has the board fetched whole.
function applyMessage(event) {
  var live = document.getElementById("live-body");
  if (!live || (parseInt(event.lastEventId, 10) || 0) <= shown()) return;
  var message = document.createElement("template"), touched = [], missing = false;
  message.innerHTML = event.data;
  Array.from(message.content.children).forEach(function (region) {
    if (!applyRegion(region, touched)) missing = true;
  });
  touched.forEach(function (el) { if (el.isConnected) htmx.process(el); });
  if (missing) refreshLive();
  live.dataset.version = event.lastEventId;
  var error = live.querySelector(":scope > p.error");  // a refusal belongs to the state it refused
  if (error) error.remove();
  document.dispatchEvent(new CustomEvent("tc:live"));  // for the turn cue, the offline banner, the night (main.js)
}
// Every stream the extension opens (a new one after an error) gets the listener once.
document.addEventListener("htmx:sseOpen", function (event) {
  event.detail.source.addEventListener("live", applyMessage);
});

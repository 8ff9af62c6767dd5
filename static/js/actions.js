// Action ids, and what a failed request says.

import { onHostPage } from "./queue.js";
import { networkLost } from "./banner.js";

function randomId() {
  // getRandomValues works on plain-http LAN pages, where crypto.randomUUID does not.
  var bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
}

// Every change carries an id made here, so a resent tap is applied once by the server.
// A form whose hx-post is empty (companion/web/forms.py writes its address once, in `action`)
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
// A seat's own tap that found no connection is kept (flush.js); anything else says
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

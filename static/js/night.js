// Game night: when the night moves on to the next table, this page's board holds a link
// marked data-follow (templates/night/_live.html). Follow it by itself, so a phone shows the
// new table with no tap; a page that was away finds it when it loads or catches up (main.js
// calls followNight after a stream message, a fetched or tapped answer, and on load). Each
// link is followed once per tab: a page the server sends back here stays, it does not go
// round in circles. The host's own "play again" tap is answered with the new table's address
// (HX-Redirect): while it is on its way, the same page does not set off a second navigation.

var startingNext = false;
// Step of htmx:beforeRequest (main.js).
export function sendStep(event) {
  if (event.detail.elt.closest && event.detail.elt.closest(".night-again")) startingNext = true;
}
// Step of htmx:afterRequest (main.js). Only a refusal lets the page follow again: htmx
// answers an HX-Redirect before it marks the request successful, and following then cut the
// host's own navigation short (a flaky test).
export function answeredStep(event) {
  var xhr = event.detail.xhr;
  if (startingNext && (!xhr || !xhr.status || xhr.status >= 400)) { startingNext = false; followNight(); }
}
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
export function followNight() {
  var link = !stays && document.querySelector("a[data-follow]");
  if (link) goOnce(link.getAttribute("href"));
}

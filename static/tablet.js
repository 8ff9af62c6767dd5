// The tablet page (templates/tablet/): a device the host revoked stops showing the board, and
// a tap's answer always morphs into the board (js/live.js, for every page).
(function () {
  "use strict";

  function refused() {
    // Its stream now carries another page's parts, or a tap came back refused: reload, and
    // the server answers with the refusal page.
    window.location.reload();
  }
  function looked() {
    if (document.getElementById("live-board") && !document.querySelector("#live-board .tb-board")) refused();
  }
  // A fetched or tapped answer (htmx's swap), and a stream's message (js/live.js: tc:live).
  document.addEventListener("htmx:afterSettle", looked);
  document.addEventListener("tc:live", looked);
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    if (xhr.status === 403 && /may not open the tablet/.test(xhr.responseText)) refused();
  });
})();

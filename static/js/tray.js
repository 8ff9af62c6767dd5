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

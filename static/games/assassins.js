// Age of Assassins deck list: the "N of 28" count follows what is typed, before saving.
// Extras (one copy each, replacing a regular) do not count, as on the server.
(function () {
  "use strict";
  function update(form) {
    var total = 0;
    var extras = ["sergeant", "chef", "wizard"];
    form.querySelectorAll(".aoa-deck-row").forEach(function (row) {
      var name = row.querySelector("input[name^=name_]");
      var copies = row.querySelector("input[name^=copies_]");
      if (!copies || (name && extras.indexOf(name.value.trim().toLowerCase()) >= 0)) return;
      var n = parseInt(copies.value, 10);
      if (n > 0) total += n;
    });
    var box = document.querySelector("[data-total]");
    var count = box && box.querySelector("[data-total-count]");
    if (!count) return;
    count.textContent = String(total);
    var size = parseInt(box.getAttribute("data-deck-size"), 10);
    box.classList.toggle("ok", total === size);
    box.classList.toggle("off", total !== size);
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("[data-deck-form]");
    if (form) update(form);
  });
})();

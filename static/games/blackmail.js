// Once You Go Blackmail...: what a phone remembers for the fairness check (issue 16).
// The board carries a hidden [data-bm-memo] with this phone's fingerprint and the cards it got;
// they are kept in localStorage, per table and round, as first shown (never overwritten by a
// later, different fingerprint), so the verify page can check the revealed deal against them.
(function () {
  "use strict";
  if (window.blackmailLoaded) { return; }   // the board re-renders with every live refresh
  window.blackmailLoaded = true;

  function remember() {
    var el = document.querySelector("[data-bm-memo]");
    if (!el) return;
    var key = "blackmail:" + el.dataset.table + ":" + el.dataset.round;
    var got = el.dataset.got ? el.dataset.got.split(",").map(Number) : [];
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { kept = null; }
    if (kept && kept.fingerprint !== el.dataset.fingerprint) return;  // the first one shown stands
    if (kept && kept.got.length >= got.length) return;
    if (kept && kept.got.some(function (c, i) { return got[i] !== c; })) {
      kept.conflict = true;            // the app showed a different past: keep ours, flag it
      localStorage.setItem(key, JSON.stringify(kept));
      return;
    }
    localStorage.setItem(key, JSON.stringify({
      fingerprint: el.dataset.fingerprint, seat: Number(el.dataset.seat), got: got
    }));
  }
  document.addEventListener("htmx:afterSettle", remember);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", remember);
  else remember();
})();

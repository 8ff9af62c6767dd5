// Once You Go Blackmail...: the phone's part of the fairness check (issue 16) and the short
// "Undo" after awarding a Victory Point in scores-only mode.
//  - remember(): the board carries a hidden [data-bm-memo] with this phone's fingerprint and the
//    cards it got; they are kept in localStorage, per table and round, as first shown (never
//    overwritten by a later, different fingerprint).
//  - On the verify page, check(): the revealed text must hash to the remembered fingerprint, and
//    replaying the round from the revealed order and the public plays must give this phone the
//    cards it remembers. The hash is @noble/hashes' SHA-256, not crypto.subtle, which needs https.
(function () {
  "use strict";
  if (window.blackmailLoaded) { return; }   // the board re-renders with every live refresh
  window.blackmailLoaded = true;

  // ------------------------------------------------------------------ SHA-256
  // An audited library (@noble/hashes, MIT), vendored unchanged from its npm package, so a
  // player need not trust hand-written bit twiddling. It ships as ES modules: imported here
  // (same origin, so the content security policy allows it), on the verify page only.
  // crypto.subtle is left out on purpose: it exists only in a secure context (a LAN is plain
  // http), and one path everywhere means phones run exactly what the tests run.
  var NOBLE = "vendor/noble-hashes-2.4.0/";
  var hasher = null;

  function sha256(text) {     // -> Promise of the hex digest of text's UTF-8 bytes
    if (!hasher) {
      var base = document.body.dataset.static || "/static/";
      hasher = Promise.all([import(base + NOBLE + "sha2.js"), import(base + NOBLE + "utils.js")])
        .then(function (m) {
          return function (t) { return m[1].bytesToHex(m[0].sha256(m[1].utf8ToBytes(t))); };
        });
    }
    return hasher.then(function (hash) { return hash(String(text)); });
  }

  // ------------------------------------------------------------------ what the phone remembers
  function memoKey(table, round) { return "blackmail:" + table + ":" + round; }

  function recall(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }

  function remember() {
    var el = document.querySelector("[data-bm-memo]");
    if (!el) return;
    var key = memoKey(el.dataset.table, el.dataset.round);
    var cards = el.querySelector("[data-got]");  // a piece of its own: a draw sends only it
    var got = cards && cards.dataset.got ? cards.dataset.got.split(",").map(Number) : [];
    var kept = recall(key);
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

  // ------------------------------------------------------------------ replaying a round
  // The same steps as companion/games/blackmail/dealt.py, from public facts only: the revealed
  // order and reshuffle, who was dealt in which order, the seats, and the public plays.
  var CHERYL = 4, PAM = 5, RAY = 6, LANA = 7;

  function parseText(text) {
    var parts = String(text).trim().split("|");
    if (parts.length !== 3) return null;
    var nums = function (s) { return s.split(",").map(function (v) { return Number(v); }); };
    return { order: nums(parts[0]), lana: nums(parts[1]), salt: parts[2] };
  }

  function replay(deal, facts) {
    var label = function (c) { return facts.cards[c] || ("card " + c); };
    var name = function (s) { return facts.names[s] || ("seat " + s); };
    var order = deal.order, hands = {}, got = {}, out = {}, guarded = {};
    var secret = order[0], deck = order.slice(1 + facts.dealt_to.length);
    facts.seats.forEach(function (s) { got[s] = []; hands[s] = []; });
    function give(s, card, how) { hands[s].push(card); got[s].push({ card: card, how: how }); }
    facts.dealt_to.forEach(function (s, i) { give(s, order[1 + i], "dealt"); });
    if (facts.plays.length && facts.plays[0].seat !== facts.dealt_to[0]) {
      return { problem: "The first play is not by the player dealt to first." };
    }
    give(facts.dealt_to[0], deck.shift(), "drawn before turn 1");
    for (var k = 0; k < facts.plays.length; k++) {
      var p = facts.plays[k], hand = hands[p.seat], at = hand.indexOf(p.card), t = p.target;
      delete guarded[p.seat];                           // Cheryl/Carol's cover ends on your turn
      if (at < 0) {
        return { got: got, problem: "Turn " + p.turn + ": " + name(p.seat) + " played " + label(p.card)
          + ", but the revealed order gave them " + hand.map(label).join(" and ") + "." };
      }
      hand.splice(at, 1);
      if ((p.card === PAM || p.card === RAY) && t !== null) {
        var dropped = hands[t].pop();
        if (dropped !== p.discarded) {
          return { got: got, problem: "Turn " + p.turn + ": " + name(t) + " dropped " + label(p.discarded)
            + ", but the revealed order gave them " + label(dropped) + "." };
        }
        var fresh;
        if (p.card === PAM) {
          if (deck.length) fresh = deck.shift(); else { fresh = secret; secret = null; }
        } else {
          fresh = secret;
          secret = deck.length ? deck.shift() : null;
        }
        give(t, fresh, label(p.card) + " on turn " + p.turn);
      } else if (p.card === LANA) {
        var live = facts.seats.filter(function (s) { return !out[s] && !guarded[s]; });
        var pool = live.map(function (s) { return hands[s][0]; });
        if (secret !== null) pool.push(secret);
        var mixed = deal.lana.filter(function (i) { return i < pool.length; }).map(function (i) { return pool[i]; });
        live.forEach(function (s, i) { hands[s] = []; give(s, mixed[i], label(LANA) + " on turn " + p.turn); });
        if (secret !== null) secret = mixed[mixed.length - 1];
      } else if (p.card === CHERYL && p.choice === "protect") {
        guarded[p.seat] = true;
      }
      if (p.eliminated !== null && p.eliminated !== undefined) {
        var shown = hands[p.eliminated][0];
        if (p.revealed !== null && p.revealed !== undefined && shown !== p.revealed) {
          return { got: got, problem: "Turn " + p.turn + ": " + name(p.eliminated) + " showed " + label(p.revealed)
            + ", but the revealed order gave them " + label(shown) + "." };
        }
        hands[p.eliminated] = [];
        out[p.eliminated] = true;
        delete guarded[p.eliminated];
      }
      if (k + 1 < facts.plays.length) give(facts.plays[k + 1].seat, deck.shift(), "drawn before turn " + (p.turn + 1));
    }
    return { got: got, problem: null };
  }

  // ------------------------------------------------------------------ the verify page
  function say(box, ok, text) {
    box.textContent = (ok === true ? "✓ " : ok === false ? "✗ " : "") + text;
    box.className = ok === true ? "ok" : ok === false ? "bad" : "muted";
    box.dataset.check = ok === true ? "ok" : ok === false ? "bad" : "none";
  }

  function checkRound(section, table) {
    var box = section.querySelector("[data-phone-check]");
    if (!box) return;
    var kept = recall(memoKey(table, section.dataset.key));
    var textEl = section.querySelector("[data-commit]");
    if (!textEl) {                                      // the round is still being played
      if (!kept) { say(box, null, "This phone has no fingerprint noted for this round."); return; }
      var now = section.querySelector("[data-fingerprint-full]").dataset.fingerprintFull;
      if (kept.fingerprint === now) say(box, true, "Same fingerprint as this phone noted at the deal.");
      else say(box, false, "This phone noted a different fingerprint at the deal: " + kept.fingerprint.slice(0, 16) + ".");
      return;
    }
    if (!kept) {
      say(box, null, "This phone did not play this round (or its browser forgot it), so it has nothing to compare. "
        + "Check it on a phone that did, or with the Python line below.");
      return;
    }
    var text = textEl.textContent.trim();
    sha256(text).then(function (hash) { checkRevealed(section, box, kept, text, hash); }, function () {
      say(box, null, "This browser could not load the hash library, so it cannot check the text. "
        + "Reload the page, or use the Python line below.");
    });
  }

  function checkRevealed(section, box, kept, text, hash) {
    if (hash !== kept.fingerprint) {
      say(box, false, "The revealed text does not hash to the fingerprint this phone noted at the deal ("
        + kept.fingerprint.slice(0, 16) + "); its hash starts " + hash.slice(0, 16) + ".");
      return;
    }
    var deal = parseText(text), facts = JSON.parse(section.dataset.replay);
    var deck = deal ? deal.order.slice().sort().join(",") : "";
    if (!deal || deck !== facts.deck.slice().sort().join(",")) {
      say(box, false, "The revealed order is not the 16 cards of the deck.");
      return;
    }
    var result = replay(deal, facts);
    if (result.problem) { say(box, false, result.problem); return; }
    var expected = result.got[kept.seat] || [];
    var label = function (c) { return facts.cards[c] || ("card " + c); };
    for (var i = 0; i < kept.got.length; i++) {
      var want = expected[i];
      if (!want || want.card !== kept.got[i]) {
        say(box, false, "Card " + (i + 1) + " this phone got was " + label(kept.got[i]) + ", but the revealed order gives "
          + (want ? label(want.card) + " (" + want.how + ")" : "no such card") + ".");
        return;
      }
    }
    if (kept.conflict) {
      say(box, false, "During the round the app showed this phone a different list of its past cards.");
      return;
    }
    var who = facts.names[kept.seat] || "this phone";
    say(box, true, "The revealed text hashes to the fingerprint this phone noted at the deal, and "
      + (kept.got.length === 1 ? "the card " + who + " got matches" : "the " + kept.got.length + " cards " + who + " got match")
      + " the revealed order.");
  }

  function check() {
    var page = document.querySelector("[data-bm-verify]");
    if (!page) return;
    page.querySelectorAll("[data-key]").forEach(function (s) { checkRound(s, page.dataset.table); });
  }

  // ------------------------------------------------------------------ scores only: Undo for 5 s
  // Only on the phone that tapped: its own request's answer carries the new event; the Undo
  // posts to the log's own /undo form for it, and goes away after UNDO_MS.
  var UNDO_MS = 5000, undo = null;

  function showUndo() {
    var slot = document.querySelector("[data-bm-undo]");
    if (!slot) return;
    if (!undo && slot.hidden && !slot.firstChild) return;  // nothing shown, nothing to show: not written again
    slot.innerHTML = "";
    slot.hidden = true;
    if (!undo || Date.now() >= undo.until) { undo = null; return; }
    var form = document.querySelector("#live-body .log li[data-event='" + undo.event + "']:not(.undone) form");
    if (!form) return;  // undone meanwhile, or a board from before the tap: the timer clears it
    var copy = form.cloneNode(true);
    copy.classList.add("bm-undo-form");
    var button = copy.querySelector("button");
    button.className = "small";
    button.textContent = "Undo";
    var p = document.createElement("p");
    p.textContent = "Victory Point awarded.";
    slot.appendChild(p);
    slot.appendChild(copy);
    slot.hidden = false;
    if (window.htmx) window.htmx.process(copy);
  }

  // The form itself is swapped out by then, so the request is known by its address.
  document.addEventListener("htmx:afterRequest", function (event) {
    var path = (event.detail.pathInfo || {}).requestPath || "";
    if (event.detail.xhr.status !== 200 || !/\/act\/round\.score$/.test(path)) return;
    var live = document.getElementById("live-body");
    var id = live && live.dataset.version;
    if (!id) return;
    undo = { event: id, until: Date.now() + UNDO_MS };
    showUndo();
    setTimeout(showUndo, UNDO_MS + 20);
  });

  // ------------------------------------------------------------------ the cards played, folded
  // The server sends every card played this round in one list (templates/games/blackmail/
  // _round.html), so a card played is one new line at its top and nothing else moves. On a
  // phone the newest few stay in that list and the rest go into the fold below it (its count
  // in its summary; hidden while empty), here, after every change: a line the stream adds,
  // replaces or deletes is found by its id wherever it sits.
  function foldPlays() {
    var fold = document.getElementById("bm-plays-fold");
    var list = document.getElementById("bm-plays-new");
    var old = document.getElementById("bm-plays-old");
    if (!fold || !list || !old) return;
    // A list the stream sent whole (a new round's, say) holds every card played, as many as
    // its count says: the lines folded away before are stale then, and go.
    var count = document.getElementById("bm-plays-count");
    var total = count ? parseInt(count.getAttribute("data-plays"), 10) : NaN;
    if (list.querySelectorAll(":scope > li[data-play]").length === total) old.replaceChildren();
    var shown = parseInt(fold.getAttribute("data-shown"), 10) || 3;
    var lines = Array.prototype.slice.call(list.querySelectorAll(":scope > li[data-play]"))
      .concat(Array.prototype.slice.call(old.querySelectorAll(":scope > li[data-play]")));
    lines.sort(function (a, b) { return b.value - a.value; });  // newest first, as the server writes them
    var top = document.getElementById("bm-plays-new-top");
    lines.forEach(function (line, i) {
      var into = i < shown ? list : old;
      var after = i === 0 ? top : (i === shown ? null : lines[i - 1]);
      // only a line out of its place moves (a move costs a layout)
      if (line.parentNode === into && line.previousElementSibling === after) return;
      into.insertBefore(line, after ? after.nextSibling : into.firstChild);
    });
    var earlier = Math.max(lines.length - shown, 0);
    var text = "Earlier cards (" + earlier + ")";
    var summary = document.getElementById("bm-plays-earlier");
    if (summary && summary.textContent !== text) summary.textContent = text;
    if (fold.hidden !== (earlier === 0)) fold.hidden = earlier === 0;
  }

  function refreshed() {
    foldPlays();
    remember();
    showUndo();
  }

  window.BlackmailCheck = { sha256: sha256, replay: replay, parseText: parseText };
  document.addEventListener("htmx:afterSettle", refreshed);
  document.addEventListener("tc:live", refreshed);  // a stream's message (js/live.js)
  document.addEventListener("htmx:afterSwap", foldPlays);  // a tap's answer: folded before it settles
  function ready() { foldPlays(); remember(); check(); showUndo(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();

// What a morph leaves be. Two things are the person's: a fold they opened or closed (the
// server does not know), and a field from the moment they type in it until its form is
// sent. Until then, and again after, a field shows what the server says.

// The fields that are the person's: marked by the input and change events only (a value the
// page itself sets is never the person's), unmarked when their form is sent, marked again
// when it is refused.
var typed = new WeakSet();
function fieldOf(el) { return el && el.tagName === "OPTION" ? el.closest("select") || el : el; }
["input", "change"].forEach(function (name) {
  document.addEventListener(name, function (event) {
    if (/^(INPUT|SELECT|TEXTAREA|OPTION)$/.test(event.target.tagName)) typed.add(fieldOf(event.target));
  });
});
document.addEventListener("click", function (event) {
  var summary = event.target.closest && event.target.closest("summary");
  if (summary && summary.parentElement.tagName === "DETAILS") summary.parentElement.dataset.toggled = "";
});

// On load (main.js): idiomorph's callbacks, before any morph.
export function setUpMorph() {
  if (!window.Idiomorph) return;
  // idiomorph moves kept nodes with the new moveBefore() where a browser has it; Chromium 156
  // crashed the page doing so mid-game, so it uses insertBefore, as in every other browser.
  [Element, Document, DocumentFragment].forEach(function (kind) {
    try { delete kind.prototype.moveBefore; } catch (e) { /* not there */ }
  });
  // idiomorph's htmx extension (0.7.4, and 0.8.0) calls every swap style it does not know
  // inline, so htmx put a list's new items in by their wrapper (a second <ol> inside the
  // first): a style that is not a morph is htmx's own again (idiomorph issue #148).
  var ext = window.htmx && htmx.defineExtension && window.Idiomorph;
  if (ext) {
    htmx.defineExtension("morph", {
      isInlineSwap: function (style) { return style === "morph" || style === "morph:outerHTML"; },
      handleSwap: function (style, target, fragment) {
        if (style === "morph" || style === "morph:outerHTML") return Idiomorph.morph(target, fragment.children, { morphStyle: "outerHTML" });
        if (style === "morph:innerHTML") return Idiomorph.morph(target, fragment.children, { morphStyle: "innerHTML" });
      },
    });
  }
  Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, el) {
    if (name === "data-toggled") return false;  // the page's own mark, unknown to the server
    if (name === "open" && el.tagName === "DETAILS") return !el.hasAttribute("data-toggled");
    if (name === "value" || name === "checked" || name === "selected") return !typed.has(fieldOf(el));
    return true;
  };
  // A spot a page script fills (Blackmail's 5-second Undo) is the script's, not the server's.
  Idiomorph.defaults.callbacks.beforeNodeMorphed = function (old) {
    return !(old.hasAttribute && old.hasAttribute("data-page-owned"));
  };
}

// A form that went through is the server's again: each field it sent that was not typed in
// since shows the server's value, and the fold holding it closes, unless the fold is a list
// one goes on reading (data-stay-open: the log, after an Undo in it). A refused form stays
// as it was, to be fixed in place.
function formOf(el) {
  return el && (el.tagName === "FORM" ? el : el.closest && el.closest("form"));
}
function fields(form) {
  return Array.from(form.elements).filter(function (el) {
    return /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && !/^(hidden|submit|button|reset|image)$/.test(el.type);
  });
}
// Step of htmx:beforeRequest (main.js): what a form sends is no longer the person's.
export function sendStep(event) {
  var form = formOf(event.detail.elt);
  if (!form || event.detail.requestConfig.verb !== "post") return;
  form.tcSent = fields(form);
  form.tcSent.forEach(function (el) { typed.delete(el); });
}
// A refusal, or no answer at all: what was sent is the person's again, to fix in place.
function keepSent(form) {
  (form && form.tcSent || []).forEach(function (el) { typed.add(el); });
  if (form) form.tcSent = null;
}
// Step of htmx:beforeSwap (main.js): a refused form's fields stay as typed through the swap.
export function swapStep(event) {
  var xhr = event.detail.xhr, config = event.detail.requestConfig;
  if (xhr && xhr.status >= 400 && config) keepSent(formOf(config.elt));
}
// Step of htmx:afterRequest (main.js): a sent form's fields show the server's values again.
export function answeredStep(event) {
  var xhr = event.detail.xhr, config = event.detail.requestConfig, form = config && formOf(config.elt);
  if (!form || !form.tcSent) return;
  if (!xhr || xhr.status < 200 || xhr.status >= 300) return keepSent(form);
  var typedSince = false;
  form.tcSent.forEach(function (el) {
    if (typed.has(el)) { typedSince = true; return; }
    if (el.tagName === "SELECT") Array.from(el.options).forEach(function (o) { o.selected = o.defaultSelected; });
    else if (el.type === "checkbox" || el.type === "radio") el.checked = el.defaultChecked;
    else el.value = el.defaultValue;
  });
  form.tcSent = null;
  var fold = form.isConnected && form.closest("details");
  if (fold && !typedSince && !fold.hasAttribute("data-stay-open")) { fold.open = false; fold.removeAttribute("data-toggled"); }
}

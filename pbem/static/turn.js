// Acting by tapping: highlight what can be chosen next, then confirm the one action chosen.
// Each legal action comes with the taps (data-tap tokens) that choose it; without this
// script the page's plain forms still work.
(function () {
  "use strict";
  var source = document.getElementById("pbem-choices");
  var confirmForm = document.getElementById("confirm");
  if (!source || !confirmForm) return;
  var choices = JSON.parse(source.textContent);
  var prefix = [];
  var hint = document.getElementById("tap-hint");
  var label = document.getElementById("confirm-label");
  var field = document.getElementById("confirm-action");
  // each action's words are on the page once, in its button or list entry
  var labels = {};
  document.querySelectorAll("#action-list option, button[data-choice]").forEach(function (el) {
    labels[el.value || el.getAttribute("data-choice")] = el.textContent;
  });

  function matching() {
    return choices.filter(function (c) {
      return prefix.every(function (t, i) { return c.taps[i] === t; });
    });
  }

  function nextTokens(found) {
    var next = {};
    found.forEach(function (c) { if (c.taps.length > prefix.length) next[c.taps[prefix.length]] = true; });
    return next;
  }

  function showConfirm(choice) {
    field.value = choice.key;
    label.textContent = choice.label || labels[choice.key] || "";
    confirmForm.hidden = false;
    confirmForm.scrollIntoView({ block: "nearest" });
  }

  function hideConfirm() { confirmForm.hidden = true; field.value = ""; }

  function refresh() {
    var found = matching();
    var next = nextTokens(found);
    var any = false;
    document.querySelectorAll("[data-tap]").forEach(function (el) {
      var token = el.getAttribute("data-tap");
      var can = Object.prototype.hasOwnProperty.call(next, token);
      any = any || can;
      el.classList.toggle("tappable", can);
      el.classList.toggle("chosen", prefix.indexOf(token) >= 0);
      if (can) { el.setAttribute("role", "button"); el.setAttribute("tabindex", "0"); }
      else { el.removeAttribute("tabindex"); }
    });
    if (hint) hint.hidden = !any;
    var complete = found.filter(function (c) { return prefix.length > 0 && c.taps.length === prefix.length; });
    if (complete.length === 1) showConfirm(complete[0]); else hideConfirm();
  }

  function tap(el) {
    var token = el.getAttribute("data-tap");
    var next = nextTokens(matching());
    if (Object.prototype.hasOwnProperty.call(next, token)) {
      prefix.push(token);
    } else if (prefix.indexOf(token) >= 0) {
      prefix = prefix.slice(0, prefix.indexOf(token));   // tapping a chosen element undoes it
    } else {
      prefix = [];                                         // start again from this element
      if (Object.prototype.hasOwnProperty.call(nextTokens(matching()), token)) prefix.push(token);
    }
    refresh();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-choice]");
    if (button) {
      event.preventDefault();
      prefix = [];
      refresh();
      var key = button.getAttribute("data-choice");
      showConfirm(choices.filter(function (c) { return c.key === key; })[0]);
      return;
    }
    var el = event.target.closest("[data-tap]");
    if (el) { event.preventDefault(); tap(el); }
  });
  document.addEventListener("keydown", function (event) {
    if ((event.key === "Enter" || event.key === " ") && event.target.matches && event.target.matches("[data-tap]")) {
      event.preventDefault();
      tap(event.target);
    }
  });
  document.getElementById("confirm-no").addEventListener("click", function () { prefix = []; refresh(); });
  refresh();
})();

// Acting by tapping: highlight what can be chosen next, then confirm the one action chosen.
// Each legal action comes with the taps (data-tap tokens) that choose it; without this
// script the page's plain forms still work.
//
// The confirm step sits in a bar fixed to the bottom of the screen, so what was tapped stays
// in view; a board too small to tap (a wrapper with data-zoom="<checkbox id>") is enlarged
// while one of its places is to be tapped; a tap on something that cannot be chosen says why.
//
// For keyboards and screen readers: every target that can be chosen is a button named by what
// choosing it does — its place's name (aria-label) put into the picked piece's `data-then`
// ("Place a temple on %s"), or its own move (`data-does`); a board (`data-rove`) is one Tab
// stop, its targets reached with the arrow keys; focus stays where it was after each choice,
// moves to the confirm bar when a move is complete (announced in #tap-said), and Escape
// cancels.
(function () {
  "use strict";
  var source = document.getElementById("pbem-choices");
  var confirmForm = document.getElementById("confirm");
  if (!source || !confirmForm) return;
  var MIN = 40;                                  // the smallest comfortable tap, in CSS px
  // the actions chosen by taps, as {first tap: ["the rest of the taps", ...]}; buttons
  // (actions without taps) carry their action in data-choice
  var tree = JSON.parse(source.textContent);
  var choices = [];
  Object.keys(tree).forEach(function (first) {
    tree[first].forEach(function (rest) {
      choices.push({ taps: [first].concat(rest ? rest.split(" ") : []) });
    });
  });
  var pick = source.getAttribute("data-pick");       // the piece picked without the script
  var prefix = pick ? [pick] : [];
  var hint = document.getElementById("tap-hint");
  var bar = document.getElementById("tap-bar");
  var message = document.getElementById("tap-message");
  var label = document.getElementById("confirm-label");
  var preview = document.getElementById("confirm-preview");
  var field = document.getElementById("confirm-action");
  var has = function (set, key) { return Object.prototype.hasOwnProperty.call(set, key); };
  var tapsField = document.getElementById("confirm-taps");
  var saysLine = document.getElementById("confirm-says");
  var asked = 0;
  var liveRegion = document.getElementById("tap-said");   // what is asked now, read out
  var opener = null;                                 // the button whose move is to be confirmed
  var yes = document.getElementById("confirm-yes");
  var names = new WeakMap(), roles = new WeakMap();  // each target's own name and role
  document.querySelectorAll("[data-tap]").forEach(function (el) {
    names.set(el, el.getAttribute("aria-label"));
    roles.set(el, el.getAttribute("role"));
  });
  // where each token can come in some action's taps: a wrong tap can then say why it did nothing
  var later = {};
  choices.forEach(function (c) { c.taps.forEach(function (t, i) { if (i > 0) later[t] = true; }); });

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

  function elementsOf(tokens) {
    return tokens.map(function (t) { return document.querySelector('[data-tap="' + t + '"]'); })
      .filter(Boolean);
  }

  // -- the bar at the bottom: a message or the confirm step -----------------------------------
  function fitBar() {
    var shown = !confirmForm.hidden || !message.hidden;
    bar.hidden = !shown;
    document.body.style.paddingBottom = shown ? bar.offsetHeight + "px" : "";
  }

  function say(text) {
    message.textContent = text;
    message.hidden = !text;
    fitBar();
  }

  function announce(text) {
    if (liveRegion) liveRegion.textContent = text;
  }

  function asking() {
    return (confirmForm.querySelector(".confirm-ask") || {}).textContent + " " +
      label.textContent + (saysLine.textContent ? " " + saysLine.textContent : "");
  }

  function showConfirm(choice) {
    field.value = choice.key || "";
    tapsField.value = choice.key ? "" : choice.taps.join(" ");
    label.textContent = choice.label || actionName() || "…";
    saysLine.textContent = "";
    if (!choice.key) says(choice.taps);
    var shown = !confirmForm.hidden;
    confirmForm.hidden = false;
    drawPreview();
    fitBar();
    reveal(elementsOf(prefix));
    announce(asking());
    if (!shown && yes) yes.focus({ preventScroll: true });     // the bar takes focus
  }

  // What a move on the board is and what it would set off: the server plays it through
  // only now, for this one move (the page carries no words for hundreds of moves).
  function says(taps) {
    var ask = ++asked;
    fetch(confirmForm.getAttribute("action") + "/says?taps=" + encodeURIComponent(taps.join(" ")),
          { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (said) {
        if (ask !== asked || !said) return;
        label.textContent = said.label;
        saysLine.textContent = said.says;
        announce(asking());
        fitBar();                                   // the bar may have grown: keep the
        reveal(elementsOf(prefix));                 // tapped places above it
      })
      .catch(function () { /* the move can still be confirmed; its words come after */ });
  }

  function hideConfirm() {
    confirmForm.hidden = true;
    field.value = "";
    tapsField.value = "";
    asked++;
    clearPreview();
    fitBar();
  }

  // -- keeping what was tapped on screen, above the bar ----------------------------------------
  function visibleBottom() { return bar.hidden ? window.innerHeight : bar.getBoundingClientRect().top; }

  function onScreen(el) {
    var r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= visibleBottom() && r.left >= 0 &&
      r.right <= window.innerWidth;
  }

  function reveal(els) {
    if (!els.length) return;
    els.forEach(scrollInsideBox);
    var top = Infinity, bottom = -Infinity;
    els.forEach(function (el) {
      var r = el.getBoundingClientRect();
      top = Math.min(top, r.top);
      bottom = Math.max(bottom, r.bottom);
    });
    var room = visibleBottom() - 8;
    if (bottom > room) window.scrollBy(0, Math.min(bottom - room, top - 8));
    else if (top < 0) window.scrollBy(0, top - 8);
  }

  // -- enlarging a board whose places are too small to tap -------------------------------------
  function toggleOf(box) { return document.getElementById(box.getAttribute("data-zoom")); }

  function small(el) {
    var r = el.getBoundingClientRect();
    return r.width < MIN || r.height < MIN;
  }

  function scrollInsideBox(el) {
    var box = el.closest && el.closest("[data-zoom]");
    if (!box || box.scrollWidth <= box.clientWidth) return;
    var b = box.getBoundingClientRect(), r = el.getBoundingClientRect();
    if (r.left < b.left || r.right > b.right) {
      box.scrollLeft += (r.left + r.right) / 2 - (b.left + b.right) / 2;
    }
  }

  function zoom(box, on) {
    var toggle = toggleOf(box);
    if (toggle && toggle.checked !== on) toggle.checked = on;
  }

  function autoZoom(nextEls) {
    document.querySelectorAll("[data-zoom]").forEach(function (box) {
      var inside = nextEls.filter(function (el) { return box.contains(el); });
      if (!inside.length || box.getAttribute("data-overview") === "1") return;
      if (inside.some(small)) zoom(box, true);
      // the places to tap next are on this board: show it, centred on them when they fit
      var left = Infinity, right = -Infinity;
      inside.forEach(function (el) {
        var r = el.getBoundingClientRect();
        left = Math.min(left, r.left);
        right = Math.max(right, r.right);
      });
      var b = box.getBoundingClientRect();
      if (right - left <= b.width) box.scrollLeft += (left + right) / 2 - (b.left + b.right) / 2;
      if (prefix.length && !inside.some(onScreen)) {     // (on arrival the page stays at its top)
        var r = box.getBoundingClientRect();
        window.scrollBy(0, r.top - Math.max(8, (visibleBottom() - r.height) / 2));
      }
    });
  }

  // -- the piece drawn on its place while confirming -------------------------------------------
  var SVGNS = "http://www.w3.org/2000/svg";

  function clearPreview() {
    document.querySelectorAll(".tap-preview").forEach(function (el) { el.remove(); });
    if (preview) preview.textContent = "";
  }

  function drawPreview() {
    clearPreview();
    var els = elementsOf(prefix);
    if (els.length < 2) return;
    var piece = els[0], place = els[els.length - 1];
    var icon = piece.querySelector && piece.querySelector("svg");
    if (!icon || piece instanceof SVGElement || !(place instanceof SVGGraphicsElement)) return;
    var style = window.getComputedStyle(piece);
    if (preview) {
      var copy = preview.appendChild(piece.cloneNode(true));
      ["data-tap", "role", "aria-pressed", "aria-label"].forEach(function (a) { copy.removeAttribute(a); });
      copy.setAttribute("tabindex", "-1");             // a picture only: out of the Tab order
      copy.setAttribute("inert", "");
    }
    var board = place.ownerSVGElement, box = place.getBBox();
    var ghost = document.createElementNS(SVGNS, "g");
    ghost.setAttribute("class", "tap-preview");
    ghost.setAttribute("pointer-events", "none");
    var round = parseFloat(style.borderTopLeftRadius) >= piece.offsetWidth / 2 - 1;
    var shape = document.createElementNS(SVGNS, round ? "circle" : "rect");
    var inset = Math.min(box.width, box.height) * 0.08;
    if (round) {
      shape.setAttribute("cx", box.x + box.width / 2);
      shape.setAttribute("cy", box.y + box.height / 2);
      shape.setAttribute("r", Math.min(box.width, box.height) / 2 - inset);
    } else {
      ["x", "y"].forEach(function (k) { shape.setAttribute(k, box[k] + inset); });
      shape.setAttribute("width", box.width - 2 * inset);
      shape.setAttribute("height", box.height - 2 * inset);
      shape.setAttribute("rx", inset);
    }
    shape.setAttribute("fill", style.backgroundColor);
    ghost.appendChild(shape);
    var picture = icon.cloneNode(true);
    var side = Math.min(box.width, box.height) * 0.6;
    picture.setAttribute("x", box.x + (box.width - side) / 2);
    picture.setAttribute("y", box.y + (box.height - side) / 2);
    picture.setAttribute("width", side);
    picture.setAttribute("height", side);
    ghost.appendChild(picture);
    board.appendChild(ghost);
  }

  // -- highlighting and tapping ----------------------------------------------------------------
  function refresh() {
    var found = matching();
    var next = nextTokens(found);
    var any = false, nextEls = [];
    var pattern = thenOf();
    document.querySelectorAll("[data-tap]").forEach(function (el) {
      var token = el.getAttribute("data-tap");
      var can = has(next, token);
      var chosen = prefix.indexOf(token) >= 0;
      any = any || can;
      if (can) nextEls.push(el);
      el.classList.toggle("tappable", can);
      el.classList.toggle("chosen", chosen);
      name(el, can, pattern);
      if (can || chosen) {
        el.setAttribute("role", "button");
        el.setAttribute("tabindex", "0");
        if (chosen) el.setAttribute("aria-pressed", "true"); else el.removeAttribute("aria-pressed");
      } else {
        var role = roles.get(el);
        if (role) el.setAttribute("role", role); else el.removeAttribute("role");
        el.removeAttribute("tabindex");
        el.removeAttribute("aria-pressed");
      }
    });
    rove();
    if (hint) hint.hidden = !any;
    var complete = found.filter(function (c) { return prefix.length > 0 && c.taps.length === prefix.length; });
    if (complete.length === 1) showConfirm(complete[0]); else hideConfirm();
    autoZoom(nextEls);
  }

  function why(token) {
    if (prefix.length && has(later, token)) return bar.getAttribute("data-not-there");
    if (has(later, token)) return bar.getAttribute("data-first");
    return bar.getAttribute("data-not-now");
  }

  function tap(el, byKey) {
    var token = el.getAttribute("data-tap");
    opener = null;
    var next = nextTokens(matching());
    var box = el.closest("[data-zoom]");
    if (has(next, token) && box && small(el) && !byKey) {
      // a place too small to tap surely: enlarge the board around it first
      box.setAttribute("data-overview", "0");
      zoom(box, true);
      scrollInsideBox(el);
      reveal([el]);
      say(bar.getAttribute("data-zoomed"));
      return;
    }
    say("");
    if (has(next, token)) {
      prefix.push(token);
    } else if (prefix.indexOf(token) >= 0) {
      prefix = prefix.slice(0, prefix.indexOf(token));   // tapping a chosen element undoes it
    } else {
      // another place for the piece chosen, another piece, or nothing that fits: say why
      var kept = prefix;
      for (var k = prefix.length - 1; k >= 0; k--) {
        prefix = kept.slice(0, k);
        if (has(nextTokens(matching()), token)) break;
      }
      if (k >= 0) prefix.push(token);
      else { prefix = kept; say(why(token)); return; }
    }
    refresh();
    keepFocus(el);
  }

  // -- names, the arrow keys and focus ---------------------------------------------------------
  function nameOf(el) {
    return el ? el.getAttribute("aria-label") || el.textContent.trim() : "";
  }

  // the words a picked piece gives the places it can go to ("Place a temple on %s")
  function thenOf() {
    var els = elementsOf(prefix);
    for (var i = els.length - 1; i >= 0; i--) {
      if (els[i].getAttribute("data-then")) return els[i].getAttribute("data-then");
    }
    return "";
  }

  // the move the taps make, in the words of its last place ("Place a temple on F7, river")
  function actionName() {
    var last = elementsOf(prefix).pop(), pattern = thenOf(), own = last && names.get(last);
    if (prefix.length === 1 && last && last.getAttribute("data-does")) return last.getAttribute("data-does");
    return pattern && own ? pattern.replace("%s", own) : nameOf(last);
  }

  function name(el, can, pattern) {
    var own = names.get(el), does = el.getAttribute("data-does");
    var text = own;
    if (can && prefix.length && pattern && own) text = pattern.replace("%s", own);
    else if (can && !prefix.length && does) text = does;
    if (text) el.setAttribute("aria-label", text); else el.removeAttribute("aria-label");
  }

  function focusable(group) {
    return Array.prototype.filter.call(group.querySelectorAll("[data-tap]"), function (el) {
      return el.hasAttribute("tabindex");
    });
  }

  // a board is one Tab stop: the target last focused there, else its first
  function rove() {
    document.querySelectorAll("[data-rove]").forEach(function (group) {
      var els = focusable(group);
      var current = els.indexOf(document.activeElement) >= 0 ? document.activeElement :
        els.indexOf(group.roving) >= 0 ? group.roving : els[0];
      els.forEach(function (el) { el.setAttribute("tabindex", el === current ? "0" : "-1"); });
      group.roving = current;
    });
  }

  function moveTo(el) {
    var group = el.closest("[data-rove]");
    if (group) { group.roving = el; rove(); }
    el.focus({ preventScroll: true });
    scrollInsideBox(el);
    if (!onScreen(el)) reveal([el]);
  }

  // the nearest target in the arrow's direction, by the centres of the targets on screen
  var ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

  function centreOf(el) {
    var r = el.getBoundingClientRect();
    return [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
  }

  function arrow(el, key) {
    var group = el.closest("[data-rove]");
    if (!group) return null;
    var els = focusable(group);
    if (key === "Home") return els[0];
    if (key === "End") return els[els.length - 1];
    var d = ARROWS[key], from = centreOf(el), best = null, bestScore = Infinity;
    els.forEach(function (other) {
      if (other === el) return;
      var to = centreOf(other);
      var along = (to[0] - from[0]) * d[0] + (to[1] - from[1]) * d[1];
      var across = Math.abs((to[0] - from[0]) * d[1] + (to[1] - from[1]) * d[0]);
      if (along <= 1 || across > along * 2) return;
      var score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = other; }
    });
    return best;
  }

  // after a choice focus stays where it was; where that target is no longer one, it goes to
  // the piece picked, else to the first place that can be chosen now
  function keepFocus(el) {
    if (!confirmForm.hidden && document.activeElement === yes) return;
    if (el && el.hasAttribute("tabindex")) { moveTo(el); return; }
    var next = document.querySelector("[data-tap].chosen") || document.querySelector("[data-tap].tappable");
    if (next) moveTo(next);
  }

  function cancel() {
    var first = elementsOf(prefix)[0] || opener;
    opener = null;
    prefix = [];
    say("");
    refresh();
    announce("");
    if (first && (first.hasAttribute("tabindex") || first.matches("button"))) moveTo(first);
    else keepFocus(null);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-choice]");
    if (button) {
      event.preventDefault();
      prefix = [];
      refresh();
      opener = button;
      showConfirm({ key: button.getAttribute("data-choice"), label: button.textContent });
      return;
    }
    var el = event.target.closest("[data-tap]");
    if (el) { event.preventDefault(); tap(el); }
  });
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var onTarget = target.matches && target.matches("[data-tap]");
    if ((event.key === "Enter" || event.key === " ") && onTarget) {
      event.preventDefault();
      tap(target, true);
    } else if (onTarget && (ARROWS[event.key] || event.key === "Home" || event.key === "End")) {
      var next = arrow(target, event.key);
      if (next !== null) event.preventDefault();
      if (next) moveTo(next);
    } else if (event.key === "Escape" && (prefix.length || !confirmForm.hidden)) {
      event.preventDefault();
      cancel();
    }
  });
  document.querySelectorAll("[data-zoom]").forEach(function (box) {
    var toggle = toggleOf(box);
    if (toggle) toggle.addEventListener("change", function () {
      box.setAttribute("data-overview", toggle.checked ? "0" : "1");   // the player's choice
    });
  });
  document.getElementById("confirm-no").addEventListener("click", cancel);
  // a move confirmed from the keyboard: the next page puts the focus back on the board
  var byKeyboard = false;
  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  confirmForm.addEventListener("submit", function () {
    try { if (byKeyboard) sessionStorage.setItem("pbem-focus", location.pathname); } catch (e) { /* private mode */ }
  });
  window.addEventListener("resize", fitBar);
  refresh();
  var back = null;
  try { back = sessionStorage.getItem("pbem-focus"); sessionStorage.removeItem("pbem-focus"); } catch (e) { /* private mode */ }
  if (back === location.pathname) {
    var again = document.querySelector("[data-rove] [data-tap][tabindex='0']") ||
      document.querySelector("[data-tap].tappable") || document.querySelector("#actions button");
    if (again) again.focus();
  }
})();

// Acting by tapping: highlight what can be chosen next, then confirm the one action chosen.
// Each legal action comes with the taps (data-tap tokens) that choose it; without this
// script the page's plain forms still work.
//
// The confirm step sits in a bar fixed to the bottom of the screen, so what was tapped stays
// in view; a board too small to tap (a wrapper with data-zoom="<checkbox id>") is enlarged
// while one of its places is to be tapped; a tap on something that cannot be chosen says why.
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

  function showConfirm(choice) {
    field.value = choice.key || "";
    tapsField.value = choice.key ? "" : choice.taps.join(" ");
    label.textContent = choice.label || "…";
    saysLine.textContent = "";
    if (!choice.key) says(choice.taps);
    confirmForm.hidden = false;
    drawPreview();
    fitBar();
    reveal(elementsOf(prefix));
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
    if (preview) preview.appendChild(piece.cloneNode(true)).removeAttribute("data-tap");
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
    document.querySelectorAll("[data-tap]").forEach(function (el) {
      var token = el.getAttribute("data-tap");
      var can = has(next, token);
      any = any || can;
      if (can) nextEls.push(el);
      el.classList.toggle("tappable", can);
      el.classList.toggle("chosen", prefix.indexOf(token) >= 0);
      if (can) { el.setAttribute("role", "button"); el.setAttribute("tabindex", "0"); }
      else { el.removeAttribute("tabindex"); }
    });
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

  function tap(el) {
    var token = el.getAttribute("data-tap");
    var next = nextTokens(matching());
    var box = el.closest("[data-zoom]");
    if (has(next, token) && box && small(el)) {
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
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-choice]");
    if (button) {
      event.preventDefault();
      prefix = [];
      refresh();
      showConfirm({ key: button.getAttribute("data-choice"), label: button.textContent });
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
  document.querySelectorAll("[data-zoom]").forEach(function (box) {
    var toggle = toggleOf(box);
    if (toggle) toggle.addEventListener("change", function () {
      box.setAttribute("data-overview", toggle.checked ? "0" : "1");   // the player's choice
    });
  });
  document.getElementById("confirm-no").addEventListener("click", function () { prefix = []; say(""); refresh(); });
  window.addEventListener("resize", fitBar);
  refresh();
})();

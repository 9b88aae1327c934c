// The replay viewer: each step is fetched (the page's main part, `?part=1`) and swapped in, so
// stepping neither reloads the page nor jumps to its top; the address follows with
// history.replaceState. The slider jumps when let go, arrow keys step, autoplay steps on a
// timer. Every control is a plain link or form too, so the viewer works without this script.
(function () {
  "use strict";
  var main = document.querySelector("main");
  if (!main || !document.getElementById("replay") || !window.fetch) return;
  var DELAY = 1200;
  var timer = null, pending = null;

  function box() { return document.getElementById("replay"); }

  function stepOf(href) {
    var url = new URL(href, window.location.href);
    return { step: url.searchParams.get("step") || "0", play: url.searchParams.get("play") === "1" };
  }

  function show(step, play) {
    var base = box().getAttribute("data-base");
    var query = "?step=" + encodeURIComponent(step) + (play ? "&play=1" : "");
    if (timer) { window.clearTimeout(timer); timer = null; }
    if (pending) pending.abort();
    pending = new AbortController();
    var focused = document.activeElement && document.activeElement.id;
    return fetch(base + query + "&part=1", { signal: pending.signal, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        var x = window.scrollX, y = window.scrollY;
        main.innerHTML = html;
        window.scrollTo(x, y);                      // the board stays where it was on screen
        window.history.replaceState(null, "", base + query);
        if (focused && document.getElementById(focused)) document.getElementById(focused).focus({ preventScroll: true });
        pending = null;
        setUp();
      })
      .catch(function (error) {
        if (error.name !== "AbortError") window.location.assign(base + query);   // the plain way
      });
  }

  function follow(id) {
    var link = document.getElementById(id);
    if (link && !link.classList.contains("disabled")) {
      var at = stepOf(link.href);
      show(at.step, at.play);
    }
  }

  // after each swap: the slider's own button hides, autoplay goes on
  function setUp() {
    var go = document.getElementById("replay-go");
    var slider = document.getElementById("replay-step");
    if (go && slider) {
      go.hidden = true;                             // the slider jumps by itself, when let go
      slider.addEventListener("change", function () { show(slider.value, false); });
    }
    var b = box();
    if (b.getAttribute("data-playing") === "1") {
      var step = parseInt(b.getAttribute("data-step"), 10);
      var last = parseInt(b.getAttribute("data-last"), 10);
      if (step < last) timer = window.setTimeout(function () { show(step + 1, true); }, DELAY);
    }
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) return;
    var link = event.target.closest("#replay a.button, ol.moves a");
    if (!link) return;
    event.preventDefault();
    if (link.classList.contains("disabled")) return;
    var at = stepOf(link.href);
    show(at.step, at.play);
  });
  document.addEventListener("input", function (event) {
    if (event.target.id !== "replay-step") return;
    var out = document.getElementById("replay-step-out");
    if (out) out.textContent = event.target.value;
  });
  document.addEventListener("submit", function (event) {
    var form = event.target.closest(".replay-jump, .replay-slider");
    if (!form) return;
    event.preventDefault();
    var field = form.querySelector("[name=step]");
    show(field.value, false);
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowLeft") follow("replay-prev");
    else if (event.key === "ArrowRight") follow("replay-next");
    else if (event.key === "Home") follow("replay-first");
    else if (event.key === "End") follow("replay-last");
  });
  setUp();
})();

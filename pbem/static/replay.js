// The replay viewer: the slider jumps when let go, arrow keys step, autoplay steps on a timer.
// Every control is a plain link or form too, so the viewer works without this script.
(function () {
  "use strict";
  var box = document.getElementById("replay");
  if (!box) return;
  var slider = document.getElementById("replay-step");
  var out = document.getElementById("replay-step-out");
  var go = document.getElementById("replay-go");
  var DELAY = 1200;

  function follow(id) {
    var link = document.getElementById(id);
    if (link && !link.classList.contains("disabled")) window.location.assign(link.href);
  }

  if (slider) {
    if (go) go.hidden = true;                       // the slider jumps by itself
    slider.addEventListener("input", function () { if (out) out.textContent = slider.value; });
    slider.addEventListener("change", function () { slider.form.submit(); });
  }
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowLeft") follow("replay-prev");
    else if (event.key === "ArrowRight") follow("replay-next");
    else if (event.key === "Home") follow("replay-first");
    else if (event.key === "End") follow("replay-last");
  });
  if (box.getAttribute("data-playing") === "1") {
    var step = parseInt(box.getAttribute("data-step"), 10);
    var last = parseInt(box.getAttribute("data-last"), 10);
    if (step < last) {
      window.setTimeout(function () {
        window.location.assign(box.getAttribute("data-base") + "?step=" + (step + 1) + "&play=1");
      }, DELAY);
    }
  }
})();

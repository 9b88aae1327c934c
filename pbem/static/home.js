// The home page's time-zone field: while the player has chosen none, offer the browser's own
// zone (they still save it themselves). Without JavaScript the field simply stays empty.
(function () {
  "use strict";
  var field = document.getElementById("time-zone");
  if (!field || field.value || !field.hasAttribute("data-from-browser")) return;
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // a zone that is UTC by another name ("Etc/UTC") adds nothing to the UTC times
    if (zone && zone.length <= 64 && zone.indexOf("/") > 0 && zone.indexOf("Etc/") !== 0) {
      field.value = zone;
    }
  } catch (e) { /* an old browser: the field stays empty */ }
})();

// The venue preflight's test page: ask the laptop back at once with the page's one-time token,
// and say what it measured. Texts come from the page's data attributes, filled as plain text.
(function () {
  "use strict";
  var main = document.getElementById("check");
  var line = document.getElementById("check-line");
  if (!main || !line) return;
  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return String(values[key]); });
  }
  fetch("/check/reached?t=" + encodeURIComponent(main.dataset.token), { cache: "no-store" })
    .then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    })
    .then(function (body) {
      // opened on the laptop itself: it says nothing about the phones
      var said = body.here ? main.dataset.reachedHere : main.dataset.reached;
      line.textContent = fill(said, { address: body.address, ms: body.ms });
      line.className = body.here ? "waiting" : "ok";
    })
    .catch(function () {
      line.textContent = main.dataset.failed;
      line.className = "bad";
    });
})();

// The waiting requests refresh themselves every 5 s (the server renders the fragment, escaped), so a reviewer who
// keeps the page open sees a new request without reloading; nothing else on the page changes under their cursor.
(function () {
  "use strict";
  var box = document.getElementById("waiting");
  if (!box) { return; }
  var count = document.getElementById("waiting-count");
  function refresh() {
    fetch(box.getAttribute("data-src"), { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { return null; }
      return response.text();
    }).then(function (html) {
      if (html === null || html === undefined) { return; }
      box.innerHTML = html;
      if (count) { count.textContent = String(box.querySelectorAll("tr[data-request]").length); }
    }).catch(function () { /* the next round tries again */ });
  }
  setInterval(refresh, 5000);
}());

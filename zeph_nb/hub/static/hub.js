// The waiting requests refresh themselves every 5 s (the server renders the fragment, escaped), so a reviewer who
// keeps the page open sees a new request without reloading; nothing else on the page changes under their cursor.
(function () {
  "use strict";
  var box = document.getElementById("waiting");
  if (!box) { return; }
  var count = document.getElementById("waiting-count");
  // JupyterHub's OAuth wants the XSRF token on a cookie-authenticated fetch, GETs included; without it each
  // refresh was sent round the login again (and made the hub a new token each time).
  var xsrf = document.querySelector('meta[name="zeph-xsrf"]');
  var headers = xsrf ? { "X-XSRFToken": xsrf.getAttribute("content") } : {};
  var timer = null;
  function refresh() {
    fetch(box.getAttribute("data-src"), { credentials: "same-origin", headers: headers, redirect: "manual" })
      .then(function (response) {
      if (response.type === "opaqueredirect" || response.status === 401 || response.status === 403) {
        clearInterval(timer);  // logged out: stop, instead of a login round trip every 5 s
        return null;
      }
      if (!response.ok) { return null; }
      return response.text();
    }).then(function (html) {
      if (html === null || html === undefined) { return; }
      box.innerHTML = html;
      if (count) { count.textContent = String(box.querySelectorAll("tr[data-request]").length); }
    }).catch(function () { /* the next round tries again */ });
  }
  timer = setInterval(refresh, 5000);
}());

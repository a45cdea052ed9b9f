// Crier: a team's social accounts page. After a connect, the network's callback brings the browser
// back with the outcome in the query (success, type, socialAccountId or error, message); the page
// shows it once. This drops those parameters from the address, so a reload or a bookmark does not
// show the outcome again. The page works without this file.
(function () {
  "use strict";

  var OUTCOME = ["success", "type", "socialAccountId", "error", "message"];

  function clean() {
    if (!window.history || typeof window.history.replaceState !== "function") return;
    var url = new URL(window.location.href);
    var changed = false;
    OUTCOME.forEach(function (k) {
      if (url.searchParams.has(k)) {
        url.searchParams.delete(k);
        changed = true;
      }
    });
    if (changed) window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", clean);
  } else {
    clean();
  }
})();

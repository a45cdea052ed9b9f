// Crier API reference: renders the OpenAPI document named by #redoc[data-spec-url] with Redoc
// (static/vendor/redoc.standalone.js, loaded before this file). No inline script: the CSP forbids it.
(function () {
  "use strict";
  var el = document.getElementById("redoc");
  if (!el || typeof window.Redoc === "undefined") return;
  var url = el.getAttribute("data-spec-url") || "/api/v1/openapi.json";
  window.Redoc.init(url, {
    scrollYOffset: ".docs-bar",
    hideDownloadButton: true,
    expandResponses: "200,201",
    jsonSampleExpandLevel: 2,
    sortPropsAlphabetically: false,
    theme: {
      colors: { primary: { main: "#4f46e5" } },
      typography: {
        fontSize: "15px",
        fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
        headings: { fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif", fontWeight: "650" },
        code: { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" }
      },
      sidebar: { backgroundColor: "#f9f9fb", width: "280px" },
      rightPanel: { backgroundColor: "#1e1b3a" }
    }
  }, el, function (err) {
    if (!err) return;
    var box = document.getElementById("redoc-error");
    if (box) box.hidden = false;
  });
})();

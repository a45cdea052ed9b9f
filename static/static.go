// Package static holds the dashboard's assets (CSS, JavaScript, images and vendored libraries),
// embedded into the binary. web serves them under /static/ with a content hash in each URL.
//
// Vendored, with their licenses beside them:
//   - js/htmx.min.js: htmx 2.0.11 (npm htmx.org, dist/htmx.min.js; 0BSD, js/htmx.LICENSE)
//   - vendor/redoc.standalone.js: Redoc 2.5.4 (npm redoc, bundles/; MIT, vendor/redoc.LICENSE),
//     with one patch so it loads nothing from a CDN (see vendor/README.md)
package static

import "embed"

// FS holds the assets, rooted at this folder: "css/app.css", "js/htmx.min.js", "img/favicon.svg"…
//
//go:embed css js img vendor
var FS embed.FS

// Crier sandbox inspector: when the network list is a scrolling row (narrow windows), keep the
// chosen network in view, on load and after the poller replaces the list. The page works without
// this file.
(function () {
  "use strict";

  function reveal() {
    var list = document.getElementById("sandbox-nets");
    if (!list || list.scrollWidth <= list.clientWidth) return;
    var current = list.querySelector('[aria-current="page"]');
    if (!current) return;
    var left = current.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + current.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = Math.max(0, left - 16);
    }
  }

  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);
  window.addEventListener("resize", reveal);
})();

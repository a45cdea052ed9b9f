// Crier composer: the per-network tabs (only the chosen networks' tabs show; arrow keys move
// between them), the upload dialog, and keeping media order. Without this file every network's
// fields show one after the other and "Upload new" opens the media library.
(function () {
  "use strict";

  function composer() { return document.querySelector("[data-composer]"); }

  function chosen(root) {
    var out = {};
    root.querySelectorAll("input[data-network-toggle]").forEach(function (i) {
      if (i.checked) out[i.value] = true;
    });
    return out;
  }

  function select(root, network, focus) {
    root.querySelectorAll("[data-tab]").forEach(function (t) {
      var on = t.getAttribute("data-tab") === network;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      if (on && focus) t.focus();
    });
    root.querySelectorAll("[data-panel]").forEach(function (p) {
      p.hidden = p.getAttribute("data-panel") !== network;
    });
    root.setAttribute("data-tab-current", network || "");
  }

  // sync shows the tabs of the chosen networks and keeps one selected (a tab with an error first).
  function sync(root) {
    var tabs = root.querySelector("[data-tabs]");
    if (!tabs) return;
    var list = tabs.querySelector("[data-tablist]");
    if (list) list.hidden = false;
    var on = chosen(root);
    var visible = [];
    tabs.querySelectorAll("[data-tab]").forEach(function (t) {
      var n = t.getAttribute("data-tab");
      t.hidden = !on[n];
      if (on[n]) visible.push(t);
    });
    var empty = tabs.querySelector("[data-tabs-empty]");
    if (empty) empty.hidden = visible.length > 0;
    var current = root.getAttribute("data-tab-current");
    if (!current || !on[current]) {
      var pick = visible.filter(function (t) { return t.querySelector(".net-tab__errors"); })[0] || visible[0];
      current = pick ? pick.getAttribute("data-tab") : "";
    }
    select(tabs, current, false);
    if (!current) tabs.querySelectorAll("[data-panel]").forEach(function (p) { p.hidden = true; });
  }

  function init(scope) {
    var root = composer();
    if (!root || (scope !== document && !root.contains(scope) && !scope.contains(root))) return;
    if (!root.dataset.tabsReady) {
      root.dataset.tabsReady = "1";
      sync(root);
    }
  }

  document.addEventListener("change", function (ev) {
    var t = ev.target;
    if (!(t instanceof Element)) return;
    var root = composer();
    if (root && t.matches("input[data-network-toggle]")) {
      if (t.checked) root.setAttribute("data-tab-current", t.value);
      sync(root);
    }
  });

  document.addEventListener("click", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    var tab = t.closest("[data-tab]");
    if (tab) {
      select(tab.closest("[data-tabs]"), tab.getAttribute("data-tab"), false);
      return;
    }
    var open = t.closest("[data-open-dialog]");
    if (open) {
      var d = document.getElementById(open.getAttribute("data-open-dialog"));
      if (d && typeof d.showModal === "function") {
        ev.preventDefault();
        d.showModal();
      }
      return;
    }
    var close = t.closest("[data-close-dialog]");
    if (close) {
      var dlg = close.closest("dialog");
      if (dlg) dlg.close();
    }
  });

  // Arrow keys, Home and End move between the visible tabs (WAI-ARIA tabs pattern).
  document.addEventListener("keydown", function (ev) {
    var t = ev.target instanceof Element ? ev.target.closest("[data-tab]") : null;
    if (!t) return;
    var tabs = Array.prototype.filter.call(t.parentNode.querySelectorAll("[data-tab]"), function (x) { return !x.hidden; });
    var i = tabs.indexOf(t);
    var next = null;
    if (ev.key === "ArrowRight") next = tabs[(i + 1) % tabs.length];
    else if (ev.key === "ArrowLeft") next = tabs[(i - 1 + tabs.length) % tabs.length];
    else if (ev.key === "Home") next = tabs[0];
    else if (ev.key === "End") next = tabs[tabs.length - 1];
    if (next) {
      ev.preventDefault();
      select(t.closest("[data-tabs]"), next.getAttribute("data-tab"), true);
    }
  });

  // A file uploaded from the dialog is ticked in the grid once the grid reloads: remember the
  // ids the grid had, and tick the new ones.
  var before = null;
  document.addEventListener("mediaChanged", function () {
    var grid = document.getElementById("composer-media");
    if (!grid) return;
    before = {};
    grid.querySelectorAll("input[name=uploadIds]").forEach(function (i) { before[i.value] = true; });
  });
  document.addEventListener("htmx:afterSwap", function (ev) {
    var target = ev.detail && ev.detail.target;
    if (!target || target.id !== "composer-media" || !before) return;
    var ticked = false;
    target.querySelectorAll("input[name=uploadIds]").forEach(function (i) {
      if (!before[i.value] && !i.checked) {
        i.checked = true;
        ticked = true;
      }
    });
    before = null;
    if (ticked) {
      var form = document.getElementById("composer-form");
      if (form) form.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { init(document); });
  else init(document);
  document.addEventListener("htmx:load", function (ev) { init(ev.target || document); });
})();

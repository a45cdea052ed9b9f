// Crier dashboard: small progressive enhancements. Pages work without this file; the CSP forbids
// inline scripts, so every behaviour lives here and hooks onto data-* attributes.
(function () {
  "use strict";

  var root = document.documentElement;
  root.classList.remove("no-js");
  root.classList.add("js");

  // Mobile navigation: [data-nav-toggle] opens the sidebar drawer, [data-nav-close] and the scrim
  // close it, Escape too. The open state is an attribute on the shell that the CSS reads.
  function shell() { return document.querySelector("[data-shell]"); }

  function setNav(open) {
    var s = shell();
    if (!s) return;
    if (open) s.setAttribute("data-nav-open", "");
    else s.removeAttribute("data-nav-open");
    document.querySelectorAll("[data-nav-toggle]").forEach(function (b) {
      b.setAttribute("aria-expanded", open ? "true" : "false");
    });
    if (open) {
      var first = s.querySelector(".sidebar a, .sidebar button");
      if (first) first.focus();
    }
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    if (t.closest("[data-nav-toggle]")) {
      var s = shell();
      setNav(!(s && s.hasAttribute("data-nav-open")));
      return;
    }
    if (t.closest("[data-nav-close]")) {
      setNav(false);
      var toggle = document.querySelector("[data-nav-toggle]");
      if (toggle) toggle.focus();
      return;
    }
    var dismiss = t.closest("[data-dismiss]");
    if (dismiss) {
      var flash = dismiss.closest("[data-flash]");
      if (flash) flash.remove();
    }
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Escape") return;
    var s = shell();
    if (s && s.hasAttribute("data-nav-open")) {
      setNav(false);
      var toggle = document.querySelector("[data-nav-toggle]");
      if (toggle) toggle.focus();
    }
  });

  // Flash messages marked data-autohide leave after a few seconds (errors stay until closed).
  function autohide(scope) {
    scope.querySelectorAll("[data-flash][data-autohide]").forEach(function (el) {
      if (el.dataset.autohideArmed) return;
      el.dataset.autohideArmed = "1";
      window.setTimeout(function () { el.remove(); }, 6000);
    });
  }
  autohide(document);
  document.addEventListener("htmx:load", function (ev) {
    if (ev.target instanceof Element) autohide(ev.target);
  });

  // Top bar menus (organization switcher, user menu): <details data-menu> disclosures, so they work
  // without this file; here they close on Escape (focus back to their trigger), on a click outside,
  // and when another menu opens.
  function openMenus() { return document.querySelectorAll("details[data-menu][open]"); }

  document.addEventListener("click", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    openMenus().forEach(function (m) {
      if (!t || !m.contains(t)) m.removeAttribute("open");
    });
  });

  document.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (!(d instanceof HTMLDetailsElement) || !d.hasAttribute("data-menu") || !d.open) return;
    openMenus().forEach(function (m) {
      if (m !== d) m.removeAttribute("open");
    });
  }, true);

  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Escape") return;
    openMenus().forEach(function (m) {
      var hadFocus = m.contains(document.activeElement);
      m.removeAttribute("open");
      var s = m.querySelector("summary");
      if (s && hadFocus) s.focus();
    });
  });
})();

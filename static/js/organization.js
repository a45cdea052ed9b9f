// Crier organization pages (teams and settings): confirmation dialogs, copy buttons and the live
// preview of the client portal's branding. Every page works without this file: confirmations are
// pages, secrets can be selected by hand, the preview shows the saved branding. The CSP forbids
// inline scripts and styles, so colours are set through the CSSOM (element.style.setProperty).
(function () {
  "use strict";

  var HEX = /^#[0-9a-fA-F]{6}$/;

  var lastTrigger = null; // the control that opened the current dialog, focused again when it goes

  function each(scope, selector, fn) {
    if (!scope || !scope.querySelectorAll) return;
    if (scope.matches && scope.matches(selector)) fn(scope);
    scope.querySelectorAll(selector).forEach(fn);
  }

  // ------------------------------------------------------------------ dialogs
  // htmx swaps a <dialog data-modal> into the dialog slot; it opens as a modal (focus trapped,
  // Escape closes, the page behind is inert) and leaves the DOM when closed.
  function openDialogs(scope) {
    each(scope, "dialog[data-modal]", function (d) {
      if (d.open || d.dataset.opened) return;
      d.dataset.opened = "1";
      d.addEventListener("close", function () {
        d.remove();
        // Cancelled: a form that asked for this confirmation shows its saved values again.
        if (lastTrigger && lastTrigger.hasAttribute("data-reset-on-cancel")) lastTrigger.reset();
        restoreFocus();
      });
      if (typeof d.showModal === "function") d.showModal();
      else d.setAttribute("open", "");
      var first = d.querySelector("[autofocus]");
      if (first) first.focus();
    });
  }

  function restoreFocus() {
    if (lastTrigger && document.contains(lastTrigger)) {
      // A form that opened the dialog (a role select) gets the focus back on its control.
      var control = lastTrigger.tagName === "FORM" ? lastTrigger.querySelector("select, input, button") : null;
      (control || lastTrigger).focus();
    } else {
      var main = document.getElementById("main");
      if (main) main.focus();
    }
    lastTrigger = null;
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    var opener = t.closest("[hx-target='#org-dialog']");
    if (opener && !opener.closest("dialog")) lastTrigger = opener;
    var close = t.closest("[data-dialog-close]");
    if (close) {
      var d = close.closest("dialog");
      if (d) d.close();
      return;
    }
    var copy = t.closest("[data-copy]");
    if (copy) copySecret(copy);
  });

  // A select that asks for a confirmation on change (keyboard or mouse) opened the dialog.
  document.addEventListener("change", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    var opener = t && t.closest("[hx-target='#org-dialog']");
    if (opener && !opener.closest("dialog")) lastTrigger = opener;
  });

  // An answer that empties the dialog slot (the action is done) removes the open dialog: give the
  // focus back to where the user was.
  document.addEventListener("htmx:afterSwap", function (ev) {
    var target = ev.detail && ev.detail.target;
    if (target && target.id === "org-dialog" && !target.querySelector("dialog")) restoreFocus();
  });

  // --------------------------------------------------------------- copy button
  function copySecret(button) {
    var input = document.querySelector(button.getAttribute("data-copy"));
    if (!input) return;
    var label = button.querySelector("[data-copy-label]");
    function copied() {
      button.classList.add("is-copied");
      if (label) label.textContent = "Copied";
      window.setTimeout(function () {
        button.classList.remove("is-copied");
        if (label) label.textContent = "Copy";
      }, 2500);
    }
    function fallback() {
      input.focus();
      input.select();
      try {
        if (document.execCommand("copy")) copied();
      } catch (e) {
        /* the key stays selected: the user copies it by hand */
      }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(copied, fallback);
    } else {
      fallback();
    }
  }

  function showCopyButtons(scope) {
    each(scope, "[data-copy]", function (b) { b.hidden = false; });
    each(scope, "input[readonly][data-testid='secret-value']", function (i) {
      i.addEventListener("focus", function () { i.select(); });
    });
  }

  // ---------------------------------------------------------- branding preview
  function initials(name) {
    var out = "";
    name.split(/\s+/).forEach(function (w) {
      var first = w.charAt(0);
      if (out.length < 2 && /[\p{L}\p{N}]/u.test(first)) out += first.toUpperCase();
    });
    return out || "?";
  }

  // Dark text on light accents, white on dark ones (WCAG relative luminance).
  function onAccent(hex) {
    var rgb = [1, 3, 5].map(function (i) {
      var c = parseInt(hex.substr(i, 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    var l = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    return l > 0.4 ? "#16161d" : "#ffffff";
  }

  function updatePreview(form) {
    var root = form.closest("#settings-branding") || document;
    var card = root.querySelector("[data-brand-preview]");
    if (!card) return;
    var nameInput = form.querySelector("[data-brand-name]");
    var logoInput = form.querySelector("[data-brand-logo]");
    var accentInput = form.querySelector("[data-brand-accent]");
    var swatch = form.querySelector("[data-brand-swatch]");

    var name = (nameInput && nameInput.value.trim()) || card.getAttribute("data-default-name") || "";
    card.querySelectorAll("[data-brand-preview-name]").forEach(function (el) { el.textContent = name; });
    var logo = card.querySelector("[data-brand-preview-logo]");
    if (logo) logo.textContent = initials(name);

    var accent = accentInput ? accentInput.value.trim() : "";
    var valid = HEX.test(accent);
    var colour = valid ? accent.toLowerCase() : card.getAttribute("data-default-accent");
    card.style.setProperty("--brand-accent", colour);
    card.style.setProperty("--brand-on-accent", onAccent(colour));
    if (swatch && valid && swatch.value !== colour) swatch.value = colour;

    var note = card.querySelector("[data-brand-preview-logo-note]");
    var url = logoInput ? logoInput.value.trim() : "";
    if (note) {
      note.hidden = url === "";
      var text = note.querySelector("[data-brand-preview-logo-url]");
      if (text) text.textContent = url;
    }
  }

  function initBranding(scope) {
    each(scope, "[data-brand-form]", function (form) {
      var swatch = form.querySelector("[data-brand-swatch]");
      if (swatch && !form.querySelector("fieldset[disabled]")) swatch.hidden = false;
      updatePreview(form);
    });
  }

  document.addEventListener("input", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    var form = t.closest("[data-brand-form]");
    if (!form) return;
    if (t.matches("[data-brand-swatch]")) {
      var accent = form.querySelector("[data-brand-accent]");
      if (accent) accent.value = t.value;
    }
    updatePreview(form);
  });

  // ------------------------------------------------------------------- start
  function init(scope) {
    openDialogs(scope);
    showCopyButtons(scope);
    initBranding(scope);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
  document.addEventListener("htmx:load", function (ev) {
    if (ev.target instanceof Element) init(ev.target);
  });
})();

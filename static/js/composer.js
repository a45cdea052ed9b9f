// Crier composer: the per-network tabs (only the chosen networks' tabs show; arrow keys move
// between them), the upload dialog, keeping media order, and X threads (add and remove posts;
// each post's media picker holds up to 4 images or 1 video or GIF). Without this file every
// network's fields show one after the other, "Upload new" opens the media library, and a thread
// always has one empty post to write the next.
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
    // From the grid (it bubbles to the form): what listens for the grid's changes, such as
    // Instagram's slides, hears it too.
    if (ticked) target.dispatchEvent(new Event("change", { bubbles: true }));
  });


  // ---- Live checks: the preview answers #composer-live again (oob) with data-errors, the fields
  // still in error for the form as it is now; the messages of the others go (the user fixed them).
  // A network's fix button sets its field and lets the preview check again.
  function clearFixed(live) {
    var form = document.getElementById("composer-form");
    if (!form) return;
    var still = {};
    (live.getAttribute("data-errors") || "").split(" ").forEach(function (n) { if (n) still[n] = true; });
    var drop = function (id) {
      var el = id && document.getElementById(id);
      if (el && el.classList.contains("field__error")) el.remove();
    };
    form.querySelectorAll("[aria-invalid=true][name]").forEach(function (c) {
      if (still[c.name]) return;
      c.removeAttribute("aria-invalid");
      var keep = [];
      (c.getAttribute("aria-describedby") || "").split(" ").forEach(function (id) {
        if (/-error$/.test(id)) drop(id);
        else if (id) keep.push(id);
      });
      if (keep.length) c.setAttribute("aria-describedby", keep.join(" "));
      else c.removeAttribute("aria-describedby");
    });
    // Errors without a control of their own (the media: composer-uploadIds-error).
    form.querySelectorAll("p.field__error[id^=composer-][id$=-error]").forEach(function (e) {
      var name = e.id.slice("composer-".length, -"-error".length);
      if (!still[name] && !live.contains(e)) e.remove();
    });
    form.querySelectorAll("[data-panel]").forEach(function (p) {
      if (p.querySelector(".field__error")) return;
      var tab = form.querySelector("[data-tab=" + p.getAttribute("data-panel") + "] .net-tab__errors");
      if (tab) tab.remove();
    });
    var msg = form.querySelector("[data-testid=composer-message][data-attention]");
    if (msg && !form.querySelector(".field__error") && !form.querySelector("[data-testid=composer-checks]")) msg.remove();
  }

  // A preview answers for the form it was sent from (data-rev, the form's "rev"): one sent before a
  // refused save but answered after it would clear that save's messages, so it is dropped.
  document.addEventListener("htmx:oobBeforeSwap", function (ev) {
    var frag = ev.detail && ev.detail.fragment;
    var el = frag && frag.firstElementChild;
    var form = document.getElementById("composer-form");
    var rev = form && form.elements.namedItem("rev");
    if (el && rev && el.hasAttribute("data-rev") && el.getAttribute("data-rev") !== rev.value) ev.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:afterSettle", function (ev) {
    var t = ev.detail && ev.detail.target;
    var live = document.getElementById("composer-live");
    if (t && t.id === "composer-preview" && live && live.hasAttribute("data-fresh")) clearFixed(live);
  });

  document.addEventListener("click", function (ev) {
    var b = ev.target instanceof Element ? ev.target.closest("[data-fix-name]") : null;
    var form = document.getElementById("composer-form");
    if (!b || !form) return;
    var name = b.getAttribute("data-fix-name"), value = b.getAttribute("data-fix-value");
    var field = Array.prototype.filter.call(form.elements, function (e) { return e.name === name && e.type !== "hidden"; })[0];
    if (!field) return;
    if (field.type === "checkbox") field.checked = value === "on";
    else field.value = value;
    field.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // ---- X threads: each further post has a key tying its media (NAME.thread.KEY.uploadIds) to its
  // text; posts are added by copying the last one with a new key, and numbered by position.
  var MAX_POSTS = 25;

  function renumber(editor) {
    var posts = editor.querySelectorAll("[data-thread-post]");
    posts.forEach(function (p, i) {
      var n = i + 2;
      var label = p.querySelector("[data-thread-label]");
      if (label) label.textContent = "Post " + n;
      var rm = p.querySelector("[data-thread-remove]");
      if (rm) {
        rm.hidden = posts.length < 2;
        rm.setAttribute("aria-label", "Remove post " + n);
      }
      var sum = p.querySelector(".thread-post__media-title");
      if (sum && sum.firstChild && sum.firstChild.nodeType === 3) sum.firstChild.textContent = "Media of post " + n + " ";
      var grid = p.querySelector("[data-thread-grid]");
      if (grid) grid.setAttribute("aria-label", "Media of post " + n);
    });
    var add = editor.querySelector("[data-thread-add]");
    if (add) add.hidden = posts.length >= MAX_POSTS;
  }

  function addPost(editor) {
    var list = editor.querySelector("[data-thread-list]");
    var posts = list.querySelectorAll("[data-thread-post]");
    if (!posts.length || posts.length >= MAX_POSTS) return;
    var last = posts[posts.length - 1];
    var key = 0;
    posts.forEach(function (p) { key = Math.max(key, parseInt(p.getAttribute("data-key"), 10) + 1 || 0); });
    var oldKey = last.getAttribute("data-key");
    var copy = last.cloneNode(true);
    copy.setAttribute("data-key", String(key));
    copy.setAttribute("data-testid", "thread-post-" + key);
    copy.classList.remove("thread-post--invalid");
    copy.querySelectorAll(".field__error").forEach(function (e) { e.remove(); });
    copy.querySelector("[data-thread-key]").value = String(key);
    var ta = copy.querySelector("textarea");
    var id = ta.id.replace(new RegExp("-" + oldKey + "$"), "-" + key);
    ta.id = id;
    ta.value = "";
    ta.removeAttribute("aria-invalid");
    ta.removeAttribute("aria-describedby");
    ta.setAttribute("data-testid", "thread-text-" + key);
    copy.querySelector("[data-thread-label]").setAttribute("for", id);
    var details = copy.querySelector("details");
    details.open = false;
    details.setAttribute("data-testid", "thread-media-" + key);
    var count = copy.querySelector("[data-thread-count]");
    if (count) count.textContent = "(none chosen)";
    var grid = copy.querySelector("[data-thread-grid]");
    var name = grid.getAttribute("data-name").replace(".thread." + oldKey + ".", ".thread." + key + ".");
    grid.setAttribute("data-name", name);
    grid.innerHTML = "";
    grid.setAttribute("hx-get", editor.getAttribute("data-thread-media") + "?name=" + encodeURIComponent(name));
    grid.setAttribute("hx-trigger", "toggle once from:closest details");
    list.appendChild(copy);
    if (window.htmx) window.htmx.process(copy);
    renumber(editor);
    ta.focus();
  }

  // limitThreadMedia keeps a post's picker to what X takes: up to 4 images, or 1 video or GIF.
  function limitThreadMedia(grid) {
    var boxes = Array.prototype.slice.call(grid.querySelectorAll("input[type=checkbox]"));
    var kind = function (i) {
      var tile = i.closest("[data-kind]");
      var k = tile ? tile.getAttribute("data-kind") : "";
      var type = tile ? (tile.querySelector("[data-testid=media-type]") || {}).textContent || "" : "";
      return k === "video" || /GIF/.test(type) ? "single" : k;
    };
    var checked = boxes.filter(function (i) { return i.checked; });
    var single = checked.some(function (i) { return kind(i) === "single"; });
    boxes.forEach(function (i) {
      if (i.checked) { i.disabled = false; return; }
      var k = kind(i);
      i.disabled = single || checked.length >= 4 || (k === "single" && checked.length > 0) || (k !== "image" && k !== "single");
    });
    var post = grid.closest("[data-thread-post]");
    var count = post && post.querySelector("[data-thread-count]");
    if (count && boxes.length) count.textContent = "(" + (checked.length ? checked.length + " chosen" : "none chosen") + ")";
  }

  function initThreads(scope) {
    var root = scope && scope.querySelectorAll ? scope : document;
    root.querySelectorAll("[data-thread]").forEach(function (editor) {
      if (editor.dataset.threadReady) return;
      editor.dataset.threadReady = "1";
      renumber(editor);
    });
    root.querySelectorAll("[data-thread-grid]").forEach(limitThreadMedia);
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    if (!t) return;
    var add = t.closest("[data-thread-add]");
    if (add) {
      addPost(add.closest("[data-thread]"));
      return;
    }
    var rm = t.closest("[data-thread-remove]");
    if (rm) {
      var editor = rm.closest("[data-thread]");
      var post = rm.closest("[data-thread-post]");
      var next = post.nextElementSibling || post.previousElementSibling;
      post.remove();
      renumber(editor);
      if (next) (next.querySelector("textarea") || next).focus();
      var form = document.getElementById("composer-form");
      if (form) form.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  document.addEventListener("change", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    var grid = t && t.closest("[data-thread-grid]");
    if (grid) limitThreadMedia(grid);
  });

  document.addEventListener("htmx:afterSwap", function (ev) {
    var target = ev.detail && ev.detail.target;
    if (target && target.matches && target.matches("[data-thread-grid]")) limitThreadMedia(target);
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { init(document); initThreads(document); });
  else { init(document); initThreads(document); }
  document.addEventListener("htmx:load", function (ev) { init(ev.target || document); initThreads(ev.target || document); });
})();

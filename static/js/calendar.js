// Crier calendar: drag a scheduled post to another day to move it (it keeps its time of day, in
// your timezone; the server computes the new instant), or in the week view to another hour (it
// takes that hour and keeps its minutes past the hour). The week view opens scrolled to the
// working hours. Without this file a post's page has a reschedule form.
(function () {
  "use strict";

  function csrf() {
    try {
      var h = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
      return h["X-CSRF-Token"] || "";
    } catch (e) {
      return "";
    }
  }

  function say(cal, text, bad) {
    var s = document.querySelector("[data-calendar-status]");
    if (!s) return;
    s.textContent = text;
    s.classList.toggle("calendar__status--error", !!bad);
  }

  var dragged = null;

  // postID is a dragged entry's post: the last segment of its link (/posts/ID).
  function postID(e) { return e.getAttribute("href").split("/").pop(); }

  document.addEventListener("dragstart", function (ev) {
    var e = ev.target instanceof Element ? ev.target.closest("a[draggable=true]") : null;
    if (!e) return;
    dragged = e;
    e.classList.add("is-dragging");
    ev.dataTransfer.effectAllowed = "move";
    ev.dataTransfer.setData("text/plain", postID(e));
  });

  document.addEventListener("dragend", function () {
    if (dragged) dragged.classList.remove("is-dragging");
    dragged = null;
    document.querySelectorAll("[data-drop].is-over").forEach(function (d) { d.classList.remove("is-over"); });
  });

  function dayOf(ev) {
    return ev.target instanceof Element ? ev.target.closest("[data-drop]") : null;
  }

  document.addEventListener("dragover", function (ev) {
    var day = dayOf(ev);
    if (!day || !dragged) return;
    ev.preventDefault();
    ev.dataTransfer.dropEffect = "move";
    document.querySelectorAll("[data-drop].is-over").forEach(function (d) { if (d !== day) d.classList.remove("is-over"); });
    day.classList.add("is-over");
  });

  // The week view opens at the working hours (data-scroll-hour); a reload of the grid (a move,
  // the next week) keeps the hours the user was looking at.
  var keep = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var b = document.querySelector("[data-week-scroll]");
    keep = b ? b.scrollTop : null;
  });
  function scrollWeek(scope) {
    var root = scope && scope.querySelectorAll ? scope : document;
    var bodies = root.matches && root.matches("[data-week-scroll]") ? [root] : root.querySelectorAll("[data-week-scroll]");
    Array.prototype.forEach.call(bodies, function (b) {
      if (b.dataset.scrolled) return;
      b.dataset.scrolled = "1";
      if (keep !== null) {
        b.scrollTop = keep;
        keep = null;
        return;
      }
      var row = b.querySelector('[data-hour="' + b.getAttribute("data-scroll-hour") + '"]');
      if (row) b.scrollTop = row.offsetTop;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { scrollWeek(document); });
  else scrollWeek(document);
  document.addEventListener("htmx:load", function (ev) { scrollWeek(ev.target); });

  document.addEventListener("drop", function (ev) {
    var day = dayOf(ev);
    if (!day || !dragged) return;
    ev.preventDefault();
    day.classList.remove("is-over");
    var cal = day.closest("[data-calendar]");
    var id = postID(dragged);
    var date = day.getAttribute("data-day");
    var slot = day.getAttribute("data-slot");
    if (dragged.closest("[data-drop]") === day) return;
    var list = day.querySelector(".calendar__entries");
    if (!list && slot) {
      list = document.createElement("ul");
      list.className = "calendar__entries";
      day.appendChild(list);
    }
    if (list) {
      var li = document.createElement("li");
      li.appendChild(dragged);
      list.appendChild(li);
    }
    dragged.classList.add("is-moving");
    say(cal, "Moving…", false);
    var body = new URLSearchParams();
    body.set("id", id);
    if (slot) body.set("slot", slot);
    else body.set("date", date);
    fetch(cal.getAttribute("data-move"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRF-Token": csrf(), "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString()
    }).then(function (res) {
      if (res.status === 204) {
        var msg = res.headers.get("X-Crier-Message");
        say(cal, msg ? decodeURIComponent(msg) : "Moved.", false);
        if (window.htmx) window.htmx.trigger(document.body, "calendarChanged");
        return;
      }
      return res.text().then(function (t) {
        say(cal, t || "The post could not be moved.", true);
        if (window.htmx) window.htmx.trigger(document.body, "calendarChanged");
      });
    }).catch(function () {
      say(cal, "The post could not be moved: the connection failed.", true);
    });
  });
})();

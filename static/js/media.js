// Crier media library: drag and drop, a progress bar per file, large files sent browser → signed
// URLs in parts (a failed part is retried, then can be resumed by hand), and the multi-select
// count. The page works without this file: the upload form posts, filters and deletes are forms.
(function () {
  "use strict";

  var PART_RETRIES = 3;

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || "";
    } catch (e) {
      return "";
    }
  }

  function humanSize(n) {
    if (n >= 1073741824) return (n / 1073741824).toFixed(1) + " GB";
    if (n >= 1048576) return (n / 1048576).toFixed(1) + " MB";
    if (n >= 1024) return Math.round(n / 1024) + " KB";
    return n + " bytes";
  }

  // xhr sends body and reports upload progress; it resolves with the XMLHttpRequest on 2xx and
  // rejects with an Error carrying the server's message otherwise.
  function xhr(method, url, body, headers, onProgress) {
    return new Promise(function (resolve, reject) {
      var r = new XMLHttpRequest();
      r.open(method, url);
      Object.keys(headers || {}).forEach(function (k) { r.setRequestHeader(k, headers[k]); });
      if (onProgress && r.upload) {
        r.upload.addEventListener("progress", function (ev) {
          if (ev.lengthComputable) onProgress(ev.loaded);
        });
      }
      r.onload = function () {
        if (r.status >= 200 && r.status < 300) {
          // The dashboard answers refusals with 200 and {"error": "…"}.
          var refusal = null;
          if ((r.getResponseHeader("Content-Type") || "").indexOf("application/json") === 0) {
            try { refusal = JSON.parse(r.responseText).error; } catch (e) { /* not JSON */ }
          }
          if (refusal) {
            var rerr = new Error(refusal);
            rerr.refused = true;
            reject(rerr);
            return;
          }
          resolve(r);
          return;
        }
        var msg = "The upload failed (" + r.status + ")";
        try {
          var j = JSON.parse(r.responseText);
          msg = j.error || j.message || msg;
        } catch (e) { /* not JSON */ }
        var err = new Error(msg);
        err.status = r.status;
        reject(err);
      };
      r.onerror = function () { reject(new Error("The connection failed")); };
      r.send(body);
    });
  }

  function postJSON(url, data) {
    return xhr("POST", url, JSON.stringify(data), {
      "Content-Type": "application/json",
      "Accept": "application/json",
      "X-CSRF-Token": csrfToken()
    }).then(function (r) {
      return r.responseText ? JSON.parse(r.responseText) : null;
    });
  }

  function Uploader(form) {
    this.form = form;
    this.list = form.querySelector("[data-media-progress]");
    this.status = form.querySelector("[data-media-status]");
    this.input = form.querySelector("input[type=file]");
    this.threshold = parseInt(form.getAttribute("data-threshold"), 10) || 16777216;
    this.pending = 0;
    this.seq = 0;
  }

  Uploader.prototype.announce = function (text) {
    if (this.status) this.status.textContent = text;
  };

  Uploader.prototype.team = function () {
    var s = this.form.querySelector("select[name=teamId]");
    return s ? s.value : "";
  };

  // row adds a file's line: name, size, a <progress>, a status and a retry button.
  Uploader.prototype.row = function (file) {
    var id = "media-up-" + (++this.seq);
    var li = document.createElement("li");
    li.className = "media-progress__item";
    li.setAttribute("data-testid", "upload-item");
    var head = document.createElement("div");
    head.className = "media-progress__head";
    var name = document.createElement("span");
    name.className = "media-progress__name";
    name.id = id + "-label";
    name.textContent = file.name;
    var state = document.createElement("span");
    state.className = "media-progress__state";
    state.setAttribute("data-testid", "upload-state");
    state.textContent = "Waiting · " + humanSize(file.size);
    head.appendChild(name);
    head.appendChild(state);
    var bar = document.createElement("progress");
    bar.className = "progress";
    bar.max = 100;
    bar.value = 0;
    bar.setAttribute("aria-labelledby", id + "-label");
    var retry = document.createElement("button");
    retry.type = "button";
    retry.className = "btn btn--secondary btn--sm";
    retry.textContent = "Retry";
    retry.hidden = true;
    retry.setAttribute("data-testid", "upload-retry");
    li.appendChild(head);
    li.appendChild(bar);
    li.appendChild(retry);
    this.list.appendChild(li);
    return {
      li: li,
      progress: function (done) {
        var pct = file.size ? Math.min(100, Math.floor(done * 100 / file.size)) : 100;
        bar.value = pct;
        bar.setAttribute("aria-valuetext", pct + "%");
        state.textContent = pct + "% of " + humanSize(file.size);
      },
      done: function () {
        bar.value = 100;
        li.classList.add("is-done");
        state.textContent = "Uploaded · " + humanSize(file.size);
        retry.hidden = true;
      },
      fail: function (msg, onRetry) {
        li.classList.add("is-failed");
        li.classList.remove("is-done");
        state.textContent = "Not uploaded";
        bar.hidden = true;
        var error = li.querySelector(".media-progress__error");
        if (!error) {
          error = document.createElement("p");
          error.className = "media-progress__error";
          error.setAttribute("role", "alert");
          error.setAttribute("data-testid", "upload-error");
          li.insertBefore(error, retry);
        }
        error.textContent = msg;
        if (onRetry) {
          retry.hidden = false;
          retry.onclick = function () {
            retry.hidden = true;
            bar.hidden = false;
            li.classList.remove("is-failed");
            if (error.parentNode) error.parentNode.removeChild(error);
            onRetry();
          };
        }
      }
    };
  };

  Uploader.prototype.add = function (files) {
    var self = this;
    Array.prototype.forEach.call(files, function (file) {
      var row = self.row(file);
      self.pending++;
      self.announce("Uploading " + file.name);
      var run = file.size > self.threshold ? self.multipart(file, row) : self.direct(file, row);
      run.then(function () {
        row.done();
        self.announce(file.name + " uploaded");
        self.finished();
      }, function (err) {
        if (!row.li.classList.contains("is-failed")) row.fail(err.message);
        self.announce(file.name + " was not uploaded: " + err.message);
        self.finished();
      });
    });
  };

  Uploader.prototype.finished = function () {
    this.pending--;
    if (this.pending === 0) {
      if (this.input) this.input.value = "";
      if (window.htmx) window.htmx.trigger(document.body, "mediaChanged");
    }
  };

  // direct POSTs the file to the dashboard (same origin).
  Uploader.prototype.direct = function (file, row) {
    var fd = new FormData();
    fd.append("file", file, file.name);
    var team = this.team();
    if (team) fd.append("teamId", team);
    return xhr("POST", this.form.getAttribute("action"), fd, {
      "Accept": "application/json",
      "X-CSRF-Token": csrfToken()
    }, function (loaded) { row.progress(loaded); });
  };

  // multipart sends file in parts to signed URLs. A part that fails is retried (with a fresh URL);
  // after PART_RETRIES the row offers Retry, which resumes at that part.
  Uploader.prototype.multipart = function (file, row) {
    var form = this.form;
    var team = this.team();
    var mime = file.type || "application/octet-stream";
    return postJSON(form.getAttribute("data-init"), { fileName: file.name, mimeType: mime, fileSize: file.size, teamId: team }).then(function (m) {
      var etags = [];
      var urls = {};
      m.parts.forEach(function (p) { urls[p.partNumber] = p.url; });
      var total = m.parts.length;

      function sendPart(n, attempt) {
        var start = (n - 1) * m.partSize;
        var blob = file.slice(start, Math.min(start + m.partSize, file.size));
        return xhr("PUT", urls[n], blob, {}, function (loaded) { row.progress(start + loaded); }).then(function (r) {
          var etag = r.getResponseHeader("ETag");
          // Without its ETag a part cannot be assembled (S3: expose ETag in the bucket's CORS).
          if (!etag) throw new Error("the storage did not confirm the part");
          etags[n - 1] = { partNumber: n, etag: etag };
          row.progress(start + blob.size);
        }).then(null, function (err) {
          if (attempt >= PART_RETRIES) throw partError(n, total, err);
          return new Promise(function (res) { setTimeout(res, 500 * attempt); }).then(function () {
            return postJSON(form.getAttribute("data-sign"), { path: m.path, uploadId: m.uploadId, partNumbers: [n] });
          }).then(function (s) {
            urls[n] = s.parts[0].url;
            return sendPart(n, attempt + 1);
          });
        });
      }

      function partError(n, total, err) {
        var e = new Error("Part " + n + " of " + total + " failed (" + err.message + "). The parts before it are kept: Retry resumes here.");
        e.part = n;
        return e;
      }

      function from(n) {
        if (n > total) {
          return postJSON(form.getAttribute("data-complete"), { path: m.path, uploadId: m.uploadId, teamId: team, parts: etags });
        }
        return sendPart(n, 1).then(function () { return from(n + 1); });
      }

      return new Promise(function (resolve, reject) {
        function attempt(n) {
          from(n).then(resolve, function (err) {
            if (!err.part) {
              reject(err);
              return;
            }
            row.fail(err.message, function () { attempt(err.part); });
          });
        }
        attempt(1);
      });
    });
  };

  function initUpload(scope) {
    var forms = scope.querySelectorAll ? scope.querySelectorAll("form[data-media-upload]") : [];
    forms.forEach(function (form) {
      if (form.dataset.mediaReady) return;
      form.dataset.mediaReady = "1";
      var up = new Uploader(form);
      var drop = form.querySelector("[data-media-drop]");
      up.input.addEventListener("change", function () {
        if (up.input.files && up.input.files.length) up.add(up.input.files);
      });
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        if (up.input.files && up.input.files.length) up.add(up.input.files);
      });
      if (!drop) return;
      var depth = 0;
      drop.addEventListener("dragenter", function (ev) {
        ev.preventDefault();
        depth++;
        drop.classList.add("is-dragging");
      });
      drop.addEventListener("dragover", function (ev) {
        ev.preventDefault();
        if (ev.dataTransfer) ev.dataTransfer.dropEffect = "copy";
      });
      drop.addEventListener("dragleave", function () {
        depth = Math.max(0, depth - 1);
        if (depth === 0) drop.classList.remove("is-dragging");
      });
      drop.addEventListener("drop", function (ev) {
        ev.preventDefault();
        depth = 0;
        drop.classList.remove("is-dragging");
        if (ev.dataTransfer && ev.dataTransfer.files.length) up.add(ev.dataTransfer.files);
      });
    });
  }

  // ---------------------------------------------------------------- selection
  function updateSelection(form) {
    var checked = form.querySelectorAll("input[name=ids]:checked").length;
    var all = form.querySelectorAll("input[name=ids]").length;
    var button = form.querySelector("[data-media-delete]");
    var label = form.querySelector("[data-media-delete-label]");
    var count = form.querySelector("[data-media-count]");
    if (button) button.disabled = checked === 0;
    if (label) label.textContent = checked ? "Delete selected (" + checked + ")" : "Delete selected";
    if (count) count.textContent = checked ? checked + " of " + all + " selected" : all + (all === 1 ? " file" : " files");
  }

  function initSelection(scope) {
    var forms = scope.querySelectorAll ? scope.querySelectorAll("form[data-media-select]") : [];
    forms.forEach(updateSelection);
  }

  document.addEventListener("change", function (ev) {
    var t = ev.target instanceof Element ? ev.target : null;
    var form = t && t.closest("form[data-media-select]");
    if (form) updateSelection(form);
  });

  function init(scope) {
    // Buttons only needed without JavaScript (htmx submits the filters on change).
    if (scope.querySelectorAll) scope.querySelectorAll("[data-media-nojs]").forEach(function (el) { el.hidden = true; });
    initUpload(scope);
    initSelection(scope);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { init(document); });
  } else {
    init(document);
  }
  document.addEventListener("htmx:load", function (ev) {
    if (ev.target instanceof Element) init(ev.target.parentNode || ev.target);
  });
})();

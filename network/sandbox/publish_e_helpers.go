package sandbox

// Helpers of the publishing twins of Facebook, Instagram, TikTok, YouTube, Pinterest, Google
// Business and Snapchat (prefixed pe so they stay apart from other twins' helpers). Async objects
// (containers, upload sessions, publish jobs) are kept as held media with their state in Data;
// media the real network pulls by URL is recorded by URL and never fetched.

import (
	"net/http"
	"net/url"
	"strings"
)

// peForm answers the query and form (urlencoded or multipart) parameters together.
func peForm(r *http.Request) url.Values {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		_ = r.ParseMultipartForm(64 << 20)
	} else {
		_ = r.ParseForm()
	}
	return r.Form
}

// peByData answers held things of a kind whose Data[key] equals v.
func (n *Net) peByData(kind, key, v string) *Held {
	for _, h := range n.held {
		if h.Kind == kind && h.Data != nil && h.Data[key] == v {
			return h
		}
	}
	return nil
}

// pePublicURL says whether s is an absolute http(s) URL a network could fetch.
func pePublicURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// peSeg answers the i-th segment of the request path ("/v4/accounts/1" → 1: "v4").
func peSeg(q *req, i int) string {
	parts := strings.Split(q.path, "/")
	if i < len(parts) {
		return parts[i]
	}
	return ""
}

// pePolls counts a status read of an async object and answers how many came before.
func pePolls(h *Held) int {
	n, _ := h.Data["polls"].(int)
	h.Data["polls"] = n + 1
	return n
}

// peNumID is a random numeric id of n digits (Graph and Pinterest ids).
func peNumID(n int) string {
	s := ""
	for len(s) < n {
		s += numericID(randID(""))
	}
	return s[:n]
}

package web

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crier/crier/app"
)

// pathIndex is an issue path's array index (an int, or a float64 once decoded from JSON).
func pathIndex(p any) (int, bool) {
	switch v := p.(type) {
	case int:
		return v, true
	case float64:
		return int(v), v >= 0 && v == float64(int(v))
	}
	return 0, false
}

// issueName is the field of a Service issue on this form: issueField, and a carousel slide's issue
// (["data","INSTAGRAM","carouselItems",i,…]) goes to the slide of the i-th item's upload.
func (in composerInput) issueName(path []any) string {
	if len(path) >= 4 && path[0] == "data" {
		n, key := app.Network(fmt.Sprint(path[1])), fmt.Sprint(path[2])
		if i, ok := pathIndex(path[3]); ok && fieldOfKind(n, app.KindCarousel) == key {
			if id := in.carouselUpload(n, key, i); id != "" {
				return slideName(n, id, "")
			}
		}
	}
	return issueField(path)
}

// carouselUpload is the upload of the i-th carousel item (field key) of n's payload ("" when none).
func (in composerInput) carouselUpload(n app.Network, key string, i int) string {
	p := in.Data.Of(n)
	if p == nil {
		return ""
	}
	items := anyObjects(getPath(payloadMap(p), key))
	if i >= len(items) {
		return ""
	}
	id, _ := items[i]["uploadId"].(string)
	return id
}

// issueField is the composer field a Service issue's path names ("data.TWITTER.poll.options" →
// "TWITTER.poll.options"; ["postDate"] → "date"); "" when none matches.
func issueField(path []any) string {
	// A post of an X thread: TWITTER.thread.1.uploadIds, TWITTER.thread.1.text, TWITTER.thread.1.
	if len(path) >= 4 && path[0] == "data" && path[2] == "thread" {
		if i, ok := pathIndex(path[3]); ok {
			n := app.Network(fmt.Sprint(path[1]))
			part := ""
			if len(path) >= 5 {
				if s, ok := path[4].(string); ok && (s == "text" || s == "uploadIds") {
					part = s
				}
			}
			return threadPostName(n, strconv.Itoa(i), part)
		}
	}
	var parts []string
	for _, p := range path {
		if _, isIndex := p.(int); isIndex {
			break
		}
		if f, isNum := p.(float64); isNum {
			_ = f
			break
		}
		parts = append(parts, fmt.Sprint(p))
	}
	if len(parts) == 0 {
		return ""
	}
	switch parts[0] {
	case "postDate":
		return "date"
	case "title":
		return "title"
	case "teamId":
		return "teamId"
	case "socialAccountTypes":
		return "networks"
	case "data":
		if len(parts) < 2 {
			return "networks"
		}
		n := app.Network(parts[1])
		if len(parts) == 2 {
			return string(n)
		}
		key := strings.Join(parts[2:], ".")
		if key == "uploadIds" {
			return "uploadIds"
		}
		for _, f := range formFields(n) {
			if f.Key == key || strings.HasPrefix(key, f.Key+".") {
				return fieldName(n, f.Key)
			}
		}
		return string(n)
	}
	return ""
}

package web

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// composerValues is a saved post's content as the composer's form: the inverse of readComposer.
// The shared text and media are the first network's; a network whose text or media differ gets
// them in its tab.
func composerValues(title string, data *app.PostData, postDate *time.Time, loc *time.Location) url.Values {
	vals := url.Values{}
	vals.Set("title", title)
	nets := data.Networks()
	if postDate != nil {
		lt := postDate.In(loc)
		vals.Set("date", lt.Format(dateLayout))
		vals.Set("time", lt.Format("15:04"))
	}
	var raw map[string]map[string]any
	b, _ := json.Marshal(data)
	_ = json.Unmarshal(b, &raw)
	shared, sharedMedia := "", []string(nil)
	if len(nets) > 0 {
		first := data.Of(nets[0])
		shared, sharedMedia = first.Body(), first.Uploads()
	}
	vals.Set("text", shared)
	for _, id := range sharedMedia {
		vals.Add("uploadIds", id)
	}
	for _, n := range nets {
		vals.Add("networks", string(n))
		p := data.Of(n)
		m := raw[string(n)]
		if !sameStrings(p.Uploads(), sharedMedia) {
			for _, id := range p.Uploads() {
				vals.Add(mediaName(n), id)
			}
		}
		for _, f := range formFields(n) {
			name := fieldName(n, f.Key)
			v := getPath(m, f.Key)
			switch f.Kind {
			case app.KindBool:
				if b, _ := v.(bool); b || (f.Default == "on" && v == nil) {
					vals.Set(name, "on")
				}
			case app.KindChecks:
				for _, s := range anyStrings(v) {
					vals.Add(name, s)
				}
			case app.KindList:
				vals.Set(name, strings.Join(anyStrings(v), ", "))
			case app.KindLines:
				vals.Set(name, strings.Join(anyStrings(v), "\n"))
			case app.KindDateTime:
				if s, _ := v.(string); s != "" {
					if t, err := time.Parse(time.RFC3339, s); err == nil {
						vals.Set(name, t.In(loc).Format("2006-01-02T15:04"))
					}
				}
			case app.KindAltTexts:
				var lines []string
				for _, it := range anyObjects(v) {
					s, _ := it["altText"].(string)
					lines = append(lines, s)
				}
				if strings.TrimSpace(strings.Join(lines, "")) != "" {
					vals.Set(name, strings.Join(lines, "\n"))
				}
			case app.KindTags:
				vals.Set(name, tagLines(v))
			case app.KindCarousel:
				for _, it := range anyObjects(v) {
					id, _ := it["uploadId"].(string)
					if alt, _ := it["altText"].(string); alt != "" {
						vals.Set(slideName(n, id, "altText"), alt)
					}
					if tags := tagLines(it["tagged"]); tags != "" {
						vals.Set(slideName(n, id, "tagged"), tags)
					}
				}
			case app.KindThread:
				for i, it := range anyObjects(v) {
					s, _ := it["text"].(string)
					key := strconv.Itoa(i)
					vals.Add(name, s)
					vals.Add(threadKeysName(n), key)
					for _, id := range anyStrings(it["uploadIds"]) {
						vals.Add(threadPostName(n, key, "uploadIds"), id)
					}
				}
			default:
				if f.Key == "text" {
					if s, _ := v.(string); s != shared {
						vals.Set(name, s)
					}
					continue
				}
				if v != nil {
					vals.Set(name, fmt.Sprint(v))
				}
			}
		}
	}
	return vals
}

// tagLines are tags as the form writes them: "username, x, y" per line.
func tagLines(v any) string {
	var lines []string
	for _, it := range anyObjects(v) {
		lines = append(lines, fmt.Sprintf("%v, %v, %v", it["username"], it["x"], it["y"]))
	}
	return strings.Join(lines, "\n")
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func anyStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func anyObjects(v any) []map[string]any {
	list, _ := v.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

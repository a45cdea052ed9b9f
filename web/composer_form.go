package web

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/crier/crier/app"
)

// composerInput is the composer's form, read: what the Service gets, and every value as typed
// (so a refused form comes back as it was).
type composerInput struct {
	TeamID   string
	Title    string
	Text     string // the shared text
	Media    []string
	Networks []app.Network
	Date     string // the schedule's local date (YYYY-MM-DD) and time (HH:MM)
	Time     string
	PostDate *time.Time
	Action   string // draft | review | schedule | now
	Rev      int    // the form's revision: each refused save answers the next one
	Data     app.PostData
	Values   url.Values        // the form as submitted
	Errors   map[string]string // by form field name ("text", "TWITTER.poll.durationMinutes")
	Rules    []app.Issue       // the networks' media rule issues (Issue.Rule), shown beside each network
}

// The composer keeps its own Values and Errors rather than components.Form (refused): its fields
// repeat (networks, media: url.Values, where Form keeps one string a name), its issues' paths run
// two deep ("TWITTER.text", mapped by issueName), a network's text issue joins the shared text's,
// and it has no focus field. Folding it into Form would change what it renders.

// Composer actions (the submit buttons' values).
const (
	actionDraft    = "draft"
	actionReview   = "review"
	actionSchedule = "schedule"
	actionNow      = "now"
)

// fieldName is the form name of a network's field ("TWITTER.poll.options").
func fieldName(n app.Network, key string) string { return string(n) + "." + key }

// mediaName is the form name of a network's own media (instead of the shared media).
func mediaName(n app.Network) string { return string(n) + ".uploadIds" }

// readComposer reads the submitted composer form in loc (the viewer's timezone). Values it cannot
// read (a number that is not one, a time a DST change skips) are errors beside their fields; the
// Service checks everything else.
func readComposer(vals url.Values, loc *time.Location) composerInput {
	in := composerInput{
		TeamID: strings.TrimSpace(vals.Get("teamId")),
		Title:  strings.TrimSpace(vals.Get("title")),
		Text:   vals.Get("text"),
		Media:  nonEmpty(vals["uploadIds"]),
		Date:   strings.TrimSpace(vals.Get("date")),
		Time:   strings.TrimSpace(vals.Get("time")),
		Action: vals.Get("action"),
		Values: vals,
		Errors: map[string]string{},
	}
	in.Rev, _ = strconv.Atoi(vals.Get("rev")) // 0 when absent (a form without JavaScript)
	for _, v := range vals["networks"] {
		n := app.Network(v)
		if n.Valid() && !hasNetwork(in.Networks, n) {
			in.Networks = append(in.Networks, n)
		}
	}
	if in.Date != "" || in.Time != "" {
		if in.Time == "" {
			in.Time = "09:00"
		}
		if t, ok := localMoment(in.Date, in.Time, loc); ok {
			in.PostDate = &t
		} else if _, _, _, dok := parseDay(in.Date); dok {
			if validClock(in.Time) {
				in.Errors["time"] = "This time does not exist on that day in " + zoneName(loc) + ": the clocks skip it. Choose another time."
			} else {
				in.Errors["time"] = "Enter a time such as 14:30"
			}
		} else {
			in.Errors["date"] = "Enter a date such as " + time.Now().In(loc).Format(dateLayout)
		}
	}
	if in.Title == "" {
		in.Title = defaultTitle(in.Text)
	}
	raw := map[string]any{}
	for _, n := range in.Networks {
		raw[string(n)] = readPayload(n, vals, in, loc)
	}
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &in.Data)
	}
	if err != nil { // the table's kinds match the payload types; a mismatch is a bug
		panic("web: composer payload: " + err.Error())
	}
	return in
}

// validClock reports whether s is a time of day (HH:MM or HH:MM:SS).
func validClock(s string) bool {
	_, err := time.Parse("15:04", s)
	if err != nil {
		_, err = time.Parse("15:04:05", s)
	}
	return err == nil
}

// defaultTitle is a post's title when none is given: the start of its first line.
func defaultTitle(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > 60 {
		line = strings.TrimSpace(string(r[:59])) + "…"
	}
	if line == "" {
		return "Untitled post"
	}
	return line
}

// readPayload builds one network's payload (as JSON values) from its fields, the shared text and
// the media.
func readPayload(n app.Network, vals url.Values, in composerInput, loc *time.Location) map[string]any {
	m := map[string]any{}
	media := nonEmpty(vals[mediaName(n)])
	if len(media) == 0 {
		media = in.Media
	}
	mediaDone := false
	for _, f := range formFields(n) {
		name := fieldName(n, f.Key)
		v := strings.TrimSpace(vals.Get(name))
		switch f.Kind {
		case app.KindBool:
			if f.Default == "on" { // a default-true flag is always sent, so unticking it says false
				setPath(m, f.Key, vals.Get(name) == "on")
			} else if vals.Get(name) == "on" {
				setPath(m, f.Key, true)
			}
		case app.KindChecks:
			if list := nonEmpty(vals[name]); len(list) > 0 {
				setPath(m, f.Key, list)
			}
		case app.KindInt:
			if v == "" {
				continue
			}
			i, err := strconv.Atoi(v)
			if err != nil {
				in.Errors[name] = "Enter a whole number"
				continue
			}
			setPath(m, f.Key, i)
		case app.KindNumber:
			if v == "" {
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				in.Errors[name] = "Enter a number"
				continue
			}
			setPath(m, f.Key, x)
		case app.KindList:
			if list := splitList(v, true); len(list) > 0 {
				setPath(m, f.Key, list)
			}
		case app.KindLines:
			if list := splitList(v, false); len(list) > 0 {
				setPath(m, f.Key, list)
			}
		case app.KindDateTime:
			if v == "" {
				continue
			}
			date, clock, _ := strings.Cut(v, "T")
			t, ok := localMoment(date, clock, loc)
			if !ok {
				in.Errors[name] = "Enter a date and time that exists in " + zoneName(loc)
				continue
			}
			setPath(m, f.Key, t.UTC().Format(time.RFC3339))
		case app.KindAltTexts:
			lines := strings.Split(strings.ReplaceAll(vals.Get(name), "\r\n", "\n"), "\n")
			if strings.TrimSpace(strings.Join(lines, "")) == "" || len(media) == 0 {
				continue
			}
			items := make([]map[string]any, 0, len(media))
			for i, id := range media {
				it := map[string]any{"uploadId": id}
				if i < len(lines) && strings.TrimSpace(lines[i]) != "" {
					it["altText"] = strings.TrimSpace(lines[i])
				}
				items = append(items, it)
			}
			setPath(m, f.Key, items)
			mediaDone = true
		case app.KindTags:
			tags, msg := parseTags(v)
			if msg != "" {
				in.Errors[name] = msg
			}
			if len(tags) > 0 {
				setPath(m, f.Key, tags)
			}
		case app.KindCarousel:
			if items := readSlides(n, vals, media, in.Errors); items != nil {
				setPath(m, f.Key, items)
				mediaDone = true
			}
		case app.KindThread:
			var tweets []map[string]any
			for _, p := range readThread(n, vals) {
				t := map[string]any{}
				if p.Text != "" {
					t["text"] = p.Text
				}
				if len(p.Media) > 0 {
					t["uploadIds"] = p.Media
				}
				tweets = append(tweets, t)
			}
			if len(tweets) > 0 {
				setPath(m, f.Key, tweets)
			}
		default: // text, textarea, url, select, upload, channel
			if v != "" {
				if f.Kind == app.KindTextarea || f.Key == "text" {
					v = strings.TrimRight(vals.Get(name), " \t\r\n")
				}
				setPath(m, f.Key, v)
			}
		}
	}
	if _, ok := m["text"]; !ok && strings.TrimSpace(in.Text) != "" {
		m["text"] = strings.TrimRight(in.Text, " \t\r\n")
	}
	if !mediaDone && len(media) > 0 {
		m["uploadIds"] = media
	}
	return m
}

// threadSplit separates a thread's posts: a line holding only ---.
var threadSplit = regexp.MustCompile(`(?m)^\s*---\s*$`)

// An X thread's further posts in the form: one text box per post, all named TWITTER.thread (in
// order), each with its key at the same position under TWITTER.thread.key; a post's media are
// TWITTER.thread.KEY.uploadIds (the composer's media picker under that name). Keys only tie a
// post's media to its text: the composer renders the posts keyed 0, 1, 2… in payload order, so a
// Service issue at ["data","TWITTER","thread",i,…] names the field TWITTER.thread.i.….

// threadPost is one further post of a thread as the form holds it.
type threadPost struct {
	Key   string
	Text  string
	Media []string
}

// threadKeysName is the form name of the thread posts' keys.
func threadKeysName(n app.Network) string { return fieldName(n, "thread") + ".key" }

// threadPostName is the form name of a part of the thread post keyed key ("uploadIds", "text", or
// "" for the post itself: errors on the whole post).
func threadPostName(n app.Network, key, part string) string {
	s := fieldName(n, "thread") + "." + key
	if part != "" {
		s += "." + part
	}
	return s
}

// formKey matches the keys the composer gives thread posts (and composer.js gives new ones).
var formKey = regexp.MustCompile(`^[0-9]{1,4}$`)

// readThread reads a thread's further posts, in order. A line holding only --- inside a post's
// text splits it (the post's media stay with its first part); posts with neither text nor media
// are dropped.
func readThread(n app.Network, vals url.Values) []threadPost {
	keys := vals[threadKeysName(n)]
	var out []threadPost
	for i, raw := range vals[fieldName(n, "thread")] {
		key := ""
		if i < len(keys) && formKey.MatchString(keys[i]) {
			key = keys[i]
		}
		var media []string
		if key != "" {
			media = nonEmpty(vals[threadPostName(n, key, "uploadIds")])
		}
		for j, part := range threadSplit.Split(strings.ReplaceAll(raw, "\r\n", "\n"), -1) {
			p := threadPost{Text: strings.TrimSpace(part)}
			if j == 0 {
				p.Key, p.Media = key, media
			}
			if p.Text != "" || len(p.Media) > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// Instagram's carousel slides in the form: per chosen upload (the slides follow the media order),
// INSTAGRAM.slide.UPLOADID.altText and INSTAGRAM.slide.UPLOADID.tagged ("username, x, y" per line).
// Keyed by upload id, a slide's values follow it when the media are reordered or ticked again.

// slideName is the form name of a part of the slide of upload id ("" for the slide itself).
func slideName(n app.Network, id, part string) string {
	s := string(n) + ".slide." + id
	if part != "" {
		s += "." + part
	}
	return s
}

// readSlides are the carouselItems of the chosen media (two or more) when any slide has an alt
// text or tags; nil otherwise (the media go as uploadIds, and the post-wide alt text and tags apply).
func readSlides(n app.Network, vals url.Values, media []string, errs map[string]string) []map[string]any {
	if len(media) < 2 {
		return nil
	}
	items := make([]map[string]any, 0, len(media))
	set := false
	for _, id := range media {
		it := map[string]any{"uploadId": id}
		if alt := strings.TrimSpace(vals.Get(slideName(n, id, "altText"))); alt != "" {
			it["altText"] = alt
			set = true
		}
		tags, msg := parseTags(vals.Get(slideName(n, id, "tagged")))
		if msg != "" {
			errs[slideName(n, id, "tagged")] = msg
		}
		if len(tags) > 0 {
			it["tagged"] = tags
			set = true
		}
		items = append(items, it)
	}
	if !set {
		return nil
	}
	return items
}

// parseTags reads tagged people, one "username, x, y" per line (x and y from 0 to 1); msg says
// what is wrong with a line that is not one.
func parseTags(s string) (tags []map[string]any, msg string) {
	for _, line := range splitList(s, false) {
		parts := strings.Split(line, ",")
		if len(parts) != 3 {
			return tags, "Write each tag as: username, x, y"
		}
		x, errX := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		y, errY := strconv.ParseFloat(strings.TrimSpace(parts[2]), 64)
		if errX != nil || errY != nil || x < 0 || x > 1 || y < 0 || y > 1 {
			return tags, "x and y are numbers from 0 to 1, such as 0.5"
		}
		tags = append(tags, map[string]any{"username": strings.TrimPrefix(strings.TrimSpace(parts[0]), "@"), "x": x, "y": y})
	}
	return tags, ""
}

// setPath sets a dotted path in m, creating the objects on the way.
func setPath(m map[string]any, path string, v any) {
	head, rest, nested := strings.Cut(path, ".")
	if !nested {
		m[head] = v
		return
	}
	sub, ok := m[head].(map[string]any)
	if !ok {
		sub = map[string]any{}
		m[head] = sub
	}
	setPath(sub, rest, v)
}

// getPath reads a dotted path of m (nil when absent).
func getPath(m map[string]any, path string) any {
	head, rest, nested := strings.Cut(path, ".")
	if !nested {
		return m[head]
	}
	sub, _ := m[head].(map[string]any)
	if sub == nil {
		return nil
	}
	return getPath(sub, rest)
}

// splitList splits on new lines (and commas when commas is true), trimming and dropping empties.
func splitList(s string, commas bool) []string {
	f := func(r rune) bool { return r == '\n' || r == '\r' || (commas && r == ',') }
	var out []string
	for _, p := range strings.FieldsFunc(s, f) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" && !hasString(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func hasNetwork(list []app.Network, n app.Network) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

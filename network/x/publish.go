package x

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
	"github.com/crier/crier/network/pubutil"
)

// Publishing: POST /2/tweets {text, media.media_ids, poll, reply_settings, quote_tweet_id,
// reply.in_reply_to_tweet_id}. Media go through the v2 chunked upload — initialize → append
// (multipart media + segment_index, ChunkSize parts) → finalize → STATUS polled while
// processing_info says pending/in_progress (the pause is check_after_secs or Poll's, whichever is
// longer; one longer than pubutil.InlineWait ends the attempt with app.ErrProcessing, and the next
// attempt resumes polling the media checkpointed under processing.{key}) — with alt text through
// POST /2/media/metadata. A thread (payload.thread, or a long text split when
// tweetStorm is on) is a chain of replies, each tweet checkpointed (tweet.0, tweet.1 …) so a retry
// continues the chain; before re-sending a tweet after a crash, the account's recent tweets are
// searched for it. Permalinks are https://x.com/{username}/status/{id}.

// DefaultChunkSize is the size of an append segment.
const DefaultChunkSize = 1 << 20

type tweet struct {
	text   string
	media  []app.MediaFile
	prefix string // checkpoint key prefix of the tweet's media
}

// tweets lays out the chain of tweets of a payload.
func (a *Adapter) tweets(req *app.PublishRequest, p *Payload) ([]tweet, error) {
	out := []tweet{{text: p.Text, media: req.Media, prefix: "media.0"}}
	if p.TweetStorm && len(p.Thread) == 0 && WeightedLength(p.Text) > 280 {
		out = nil
		for i, part := range SplitStorm(p.Text, 280, p.TweetStormNumbering) {
			tw := tweet{text: part, prefix: "media." + strconv.Itoa(i)}
			if i == 0 {
				tw.media = req.Media
			}
			out = append(out, tw)
		}
		return out, nil
	}
	byID := map[string]app.MediaFile{}
	for _, m := range req.Media {
		byID[m.UploadID] = m
	}
	for id, m := range req.More {
		byID[id] = m
	}
	for i, tt := range p.Thread {
		tw := tweet{text: tt.Text, prefix: "media." + strconv.Itoa(i+1)}
		for _, id := range tt.UploadIDs {
			m, ok := byID[id]
			if !ok {
				return nil, &app.NetworkError{Network: app.Twitter, Class: app.ErrPermanent, Code: "media",
					Message: "upload " + id + " of thread tweet " + strconv.Itoa(i+2) + " was not resolved for publishing"}
			}
			tw.media = append(tw.media, m)
		}
		out = append(out, tw)
	}
	if p.TweetStormNumbering && len(out) > 1 {
		for i := range out {
			out[i].text = strings.TrimRight(out[i].text, " \n") + fmt.Sprintf(" %d/%d", i+1, len(out))
		}
	}
	return out, nil
}

var urlRe = regexp.MustCompile(`https?://[^\s]+`)

// WeightedLength is X's weighted count: URLs count 23; code points outside the light ranges
// (CJK, emoji …) count 2.
func WeightedLength(s string) int {
	n := 0
	rest := urlRe.ReplaceAllStringFunc(s, func(string) string { n += 23; return "" })
	for _, r := range rest {
		if r <= 0x10FF || (r >= 0x2000 && r <= 0x200D) || (r >= 0x2010 && r <= 0x201F) || (r >= 0x2032 && r <= 0x2037) {
			n++
		} else {
			n += 2
		}
	}
	return n
}

// SplitStorm cuts a long text into tweets of at most limit weighted characters, at paragraph,
// then word boundaries (numbered "i/n" when asked; the numbering's room is kept free).
func SplitStorm(text string, limit int, numbered bool) []string {
	room := limit
	if numbered {
		room -= 8
	}
	var parts []string
	cur := ""
	push := func() {
		if strings.TrimSpace(cur) != "" {
			parts = append(parts, strings.TrimSpace(cur))
		}
		cur = ""
	}
	for _, word := range strings.SplitAfter(text, " ") {
		for WeightedLength(word) > room { // a word longer than a tweet: cut it
			push()
			cut := 0
			for i := range word {
				if WeightedLength(word[:i]) > room {
					break
				}
				cut = i
			}
			if cut == 0 {
				_, size := utf8.DecodeRuneInString(word)
				cut = size
			}
			parts = append(parts, word[:cut])
			word = word[cut:]
		}
		if WeightedLength(cur+word) > room {
			push()
		}
		cur += word
	}
	push()
	if numbered && len(parts) > 1 {
		for i := range parts {
			parts[i] += fmt.Sprintf(" %d/%d", i+1, len(parts))
		}
	}
	return parts
}

var replySettings = map[string]string{"FOLLOWING": "following", "MENTIONED_USERS": "mentionedUsers", "SUBSCRIBERS": "subscribers", "VERIFIED": "verified"}

func payloadOf(req *app.PublishRequest) (*Payload, error) {
	p, ok := req.Payload.(*Payload)
	if !ok || p == nil {
		return nil, &app.NetworkError{Network: app.Twitter, Class: app.ErrPermanent, Code: "payload", Message: "not an X payload"}
	}
	return p, nil
}

// Publish posts the tweet, or the thread as a chain of replies.
func (a *Adapter) Publish(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, err := payloadOf(req)
	if err != nil {
		return nil, err
	}
	chain, err := a.tweets(req, p)
	if err != nil {
		return nil, err
	}
	resumed := len(req.Resume) > 0
	if req.Checkpointed("startedAt") == "" {
		if err := req.Save(ctx, "startedAt", time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			return nil, err
		}
	}
	user, err := a.me(ctx, t, req.Account)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(chain))
	for i, tw := range chain {
		key := "tweet." + strconv.Itoa(i)
		if id := req.Checkpointed(key); id != "" {
			ids = append(ids, id)
			continue
		}
		if resumed && i > 0 {
			// An earlier attempt may have posted this tweet and lost the answer.
			if id, err := a.findReply(ctx, t, user.ID, ids[i-1], tw.text, req); err != nil {
				return nil, err
			} else if id != "" {
				if err := req.Save(ctx, key, id); err != nil {
					return nil, err
				}
				ids = append(ids, id)
				continue
			}
		}
		body := map[string]any{"text": tw.text}
		var mediaIDs []string
		for k, m := range tw.media {
			id, err := a.upload(ctx, t, req, tw.prefix+"."+strconv.Itoa(k), m)
			if err != nil {
				return nil, err
			}
			mediaIDs = append(mediaIDs, id)
		}
		if len(mediaIDs) > 0 {
			body["media"] = map[string]any{"media_ids": mediaIDs}
		}
		if i == 0 {
			if p.Poll != nil && len(p.Poll.Options) > 0 {
				body["poll"] = map[string]any{"options": p.Poll.Options, "duration_minutes": p.Poll.DurationMinutes}
			}
			if s := replySettings[p.ReplySettings]; s != "" {
				body["reply_settings"] = s
			}
			if p.QuoteTweetID != "" {
				body["quote_tweet_id"] = p.QuoteTweetID
			}
			if p.ReplyToTweetID != "" {
				body["reply"] = map[string]any{"in_reply_to_tweet_id": p.ReplyToTweetID}
			}
		} else {
			body["reply"] = map[string]any{"in_reply_to_tweet_id": ids[i-1]}
		}
		id, err := a.create(ctx, t, body)
		if err != nil {
			return nil, err
		}
		if err := req.Save(ctx, key, id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return published(user.Username, ids), nil
}

func published(username string, ids []string) *app.Published {
	return &app.Published{ExternalID: ids[0], Permalink: Permalink(username, ids[0]),
		Extra: map[string]string{"thread": strings.Join(ids, ","), "username": username}}
}

// Permalink is a tweet's public URL.
func Permalink(username, id string) string {
	if username == "" {
		username = "i/web"
	}
	return "https://x.com/" + username + "/status/" + id
}

func (a *Adapter) create(ctx context.Context, t *app.Token, body map[string]any) (string, error) {
	var out struct {
		Data struct {
			ID   string `json:"id"`
			Text string `json:"text"`
		} `json:"data"`
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/tweets", Bearer: t.AccessToken, JSON: body}, &out); err != nil {
		return "", err
	}
	if out.Data.ID == "" {
		return "", &app.NetworkError{Network: app.Twitter, Class: app.ErrTransient, Message: "the answer holds no tweet id"}
	}
	return out.Data.ID, nil
}

// me answers the account's id and username (from the account, else GET /2/users/me).
func (a *Adapter) me(ctx context.Context, t *app.Token, acc *app.SocialAccount) (User, error) {
	if acc != nil && acc.ExternalID != nil && acc.Username != nil && *acc.ExternalID != "" {
		return User{ID: *acc.ExternalID, Username: *acc.Username}, nil
	}
	p, err := a.Profile(ctx, t)
	if err != nil {
		return User{}, err
	}
	return User{ID: p.ExternalID, Username: p.Username}, nil
}

func mediaCategory(m app.MediaFile) string {
	switch {
	case m.Type == "video":
		return "tweet_video"
	case m.Mime == "image/gif":
		return "tweet_gif"
	default:
		return "tweet_image"
	}
}

type mediaAnswer struct {
	Data struct {
		ID             string `json:"id"`
		MediaKey       string `json:"media_key"`
		ProcessingInfo *struct {
			State          string `json:"state"`
			CheckAfterSecs int    `json:"check_after_secs"`
			Error          *struct {
				Code    int    `json:"code"`
				Name    string `json:"name"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"processing_info"`
	} `json:"data"`
}

// upload sends one media file through the chunked v2 flow (once: checkpointed under key when
// processed, and under processing.{key} while X processes it) and answers its media id.
func (a *Adapter) upload(ctx context.Context, t *app.Token, req *app.PublishRequest, key string, m app.MediaFile) (string, error) {
	if id := req.Checkpointed(key); id != "" {
		return id, nil
	}
	var st mediaAnswer
	id := req.Checkpointed("processing." + key)
	if id != "" {
		// An earlier attempt uploaded it and left it processing: look at it again.
		if err := a.mediaStatus(ctx, t, id, &st); err != nil {
			return "", err
		}
	} else {
		var err error
		if id, st, err = a.send(ctx, t, m); err != nil {
			return "", err
		}
		if pi := st.Data.ProcessingInfo; pi != nil && pi.State != "succeeded" && pi.State != "failed" {
			if err := req.Save(ctx, "processing."+key, id); err != nil {
				return "", err
			}
		}
	}
	for i := 0; st.Data.ProcessingInfo != nil && st.Data.ProcessingInfo.State != "succeeded"; i++ {
		pi := st.Data.ProcessingInfo
		if pi.State == "failed" {
			msg := "media processing failed"
			if pi.Error != nil && pi.Error.Message != "" {
				msg = pi.Error.Message
			}
			if req.Checkpointed("processing."+key) != "" {
				_ = req.Save(ctx, "processing."+key, "") // a retry uploads the file again
			}
			return "", &app.NetworkError{Network: app.Twitter, Class: app.ErrPermanent, Code: "media_processing_failed", Message: msg}
		}
		if err := a.pause(ctx, i, time.Duration(pi.CheckAfterSecs)*time.Second); err != nil {
			return "", pubutil.StillProcessing(app.Twitter, "the media", err)
		}
		st = mediaAnswer{}
		if err := a.mediaStatus(ctx, t, id, &st); err != nil {
			return "", err
		}
	}
	if m.AltText != "" && m.Type != "video" {
		if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/media/metadata", Bearer: t.AccessToken,
			JSON: map[string]any{"id": id, "metadata": map[string]any{"alt_text": map[string]string{"text": m.AltText}}}}, nil); err != nil {
			return "", err
		}
	}
	if err := req.Save(ctx, key, id); err != nil {
		return "", err
	}
	return id, nil
}

// send uploads the bytes (initialize → append → finalize) and answers the media id and finalize's
// answer.
func (a *Adapter) send(ctx context.Context, t *app.Token, m app.MediaFile) (string, mediaAnswer, error) {
	var fin mediaAnswer
	if m.Open == nil {
		return "", fin, &app.NetworkError{Network: app.Twitter, Class: app.ErrPermanent, Code: "media", Message: "media " + m.UploadID + " cannot be read"}
	}
	rc, err := m.Open(ctx)
	if err != nil {
		return "", fin, fmt.Errorf("x: open media %s: %w", m.UploadID, err)
	}
	data, err := io.ReadAll(rc)
	_ = rc.Close()
	if err != nil {
		return "", fin, fmt.Errorf("x: read media %s: %w", m.UploadID, err)
	}
	var init mediaAnswer
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/media/upload/initialize", Bearer: t.AccessToken,
		JSON: map[string]any{"media_type": m.Mime, "total_bytes": len(data), "media_category": mediaCategory(m)}}, &init); err != nil {
		return "", fin, err
	}
	id := init.Data.ID
	chunk := a.ChunkSize
	if chunk <= 0 {
		chunk = DefaultChunkSize
	}
	for seg, off := 0, 0; off < len(data); seg, off = seg+1, off+chunk {
		end := min(off+chunk, len(data))
		if err := a.appendChunk(ctx, t, id, seg, data[off:end]); err != nil {
			return "", fin, err
		}
	}
	if err := a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/media/upload/" + url.PathEscape(id) + "/finalize", Bearer: t.AccessToken}, &fin); err != nil {
		return "", fin, err
	}
	return id, fin, nil
}

// mediaStatus reads a media's processing_info (STATUS).
func (a *Adapter) mediaStatus(ctx context.Context, t *app.Token, id string, st *mediaAnswer) error {
	return a.api.Do(ctx, core.Request{URL: a.base + "/2/media/upload?command=STATUS&media_id=" + url.QueryEscape(id), Bearer: t.AccessToken}, st)
}

func (a *Adapter) poller() pubutil.Poller {
	if a.Poll.Every > 0 {
		return a.Poll
	}
	return pubutil.Poller{Every: time.Second, Max: 30 * time.Second}
}

// pause waits before status poll i for the longer of the Poller's pause and X's check_after
// (inline when both are at most pubutil.InlineWait; else a *pubutil.Yield).
func (a *Adapter) pause(ctx context.Context, i int, after time.Duration) error {
	start := time.Now()
	if after > pubutil.InlineWait {
		// Too long to wait here: yield, at the Poller's time when that is later. A cancelled
		// context makes Wait answer at once (its Yield, or ctx's error for an inline pause).
		probe, cancel := context.WithCancel(ctx)
		cancel()
		var y *pubutil.Yield
		if errors.As(a.poller().Wait(probe, i), &y) && y.Until.After(start.Add(after)) {
			return y
		}
		return &pubutil.Yield{Until: start.Add(after)}
	}
	if err := a.poller().Wait(ctx, i); err != nil {
		return err // a Yield is already later than after
	}
	rest := after - time.Since(start)
	if rest <= 0 {
		return nil
	}
	timer := time.NewTimer(rest)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

func (a *Adapter) appendChunk(ctx context.Context, t *app.Token, id string, seg int, chunk []byte) error {
	body, ctype, err := core.Multipart(func(mw *multipart.Writer) error {
		if err := mw.WriteField("segment_index", strconv.Itoa(seg)); err != nil {
			return err
		}
		w, err := mw.CreateFormFile("media", "blob")
		if err != nil {
			return err
		}
		_, err = w.Write(chunk)
		return err
	})
	if err != nil {
		return err
	}
	return a.api.Do(ctx, core.Request{Method: http.MethodPost, URL: a.base + "/2/media/upload/" + url.PathEscape(id) + "/append", Bearer: t.AccessToken,
		Body: body, ContentType: ctype}, nil)
}

// Tweet is the part of a v2 tweet object Crier reads.
type Tweet struct {
	ID               string    `json:"id"`
	Text             string    `json:"text"`
	AuthorID         string    `json:"author_id"`
	CreatedAt        time.Time `json:"created_at"`
	ConversationID   string    `json:"conversation_id"`
	ReferencedTweets []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	} `json:"referenced_tweets"`
}

func (tw Tweet) repliesTo() string {
	for _, r := range tw.ReferencedTweets {
		if r.Type == "replied_to" {
			return r.ID
		}
	}
	return ""
}

// sameText compares texts as X returns them (links replaced by t.co ones).
func sameText(got, want string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(urlRe.ReplaceAllString(s, "")), " ") }
	return norm(got) == norm(want)
}

// recent answers the account's tweets since the attempt began (newest first).
func (a *Adapter) recent(ctx context.Context, t *app.Token, userID string, req *app.PublishRequest) ([]Tweet, error) {
	since := time.Now().Add(-24 * time.Hour)
	if s, err := time.Parse(time.RFC3339Nano, req.Checkpointed("startedAt")); err == nil {
		since = s.Add(-time.Minute)
	}
	q := url.Values{"max_results": {"100"}, "start_time": {since.UTC().Format(time.RFC3339)},
		"tweet.fields": {"created_at,conversation_id,referenced_tweets,author_id"}}
	// Every tweet since the attempt, a page of 100 at a time (a busy account posts many).
	var all []Tweet
	for page := 0; page < maxTimelinePages; page++ {
		var out struct {
			Data []Tweet `json:"data"`
			Meta struct {
				NextToken string `json:"next_token"`
			} `json:"meta"`
		}
		if err := a.api.Do(ctx, core.Request{URL: a.base + "/2/users/" + url.PathEscape(userID) + "/tweets?" + q.Encode(), Bearer: t.AccessToken}, &out); err != nil {
			return nil, err
		}
		all = append(all, out.Data...)
		if out.Meta.NextToken == "" {
			break
		}
		q.Set("pagination_token", out.Meta.NextToken)
	}
	return all, nil
}

// maxTimelinePages bounds a reconciliation's reading of the timeline (X serves up to 3,200 recent tweets).
const maxTimelinePages = 32

func (a *Adapter) findReply(ctx context.Context, t *app.Token, userID, parent, text string, req *app.PublishRequest) (string, error) {
	tws, err := a.recent(ctx, t, userID, req)
	if err != nil {
		return "", err
	}
	for _, tw := range tws {
		if tw.repliesTo() == parent && sameText(tw.Text, text) {
			return tw.ID, nil
		}
	}
	return "", nil
}

// lookup reads one tweet (nil when X has none: deleted or never made).
func (a *Adapter) lookup(ctx context.Context, t *app.Token, id string) (*Tweet, error) {
	var out struct {
		Data   *Tweet `json:"data"`
		Errors []struct {
			Title string `json:"title"`
		} `json:"errors"`
	}
	if err := a.api.Do(ctx, core.Request{URL: a.base + "/2/tweets/" + url.PathEscape(id) + "?tweet.fields=created_at,conversation_id,referenced_tweets,author_id", Bearer: t.AccessToken}, &out); err != nil {
		var ne *app.NetworkError
		if asNE(err, &ne) && ne.Status == http.StatusNotFound {
			return nil, nil
		}
		return nil, err
	}
	return out.Data, nil
}

func asNE(err error, ne **app.NetworkError) bool {
	n, ok := err.(*app.NetworkError)
	*ne = n
	return ok
}

// Find answers the tweet (thread) of an earlier attempt: the checkpointed first tweet when the
// whole chain was checkpointed; nil when only part of a thread was (Publish resumes it); else the
// account's recent tweet with the first tweet's text, not a reply to another of the chain.
func (a *Adapter) Find(ctx context.Context, t *app.Token, req *app.PublishRequest) (*app.Published, error) {
	p, err := payloadOf(req)
	if err != nil {
		return nil, err
	}
	chain, err := a.tweets(req, p)
	if err != nil {
		return nil, err
	}
	user, err := a.me(ctx, t, req.Account)
	if err != nil {
		return nil, err
	}
	if first := req.Checkpointed("tweet.0"); first != "" {
		ids := []string{}
		for i := range chain {
			id := req.Checkpointed("tweet." + strconv.Itoa(i))
			if id == "" {
				return nil, nil // a thread left half-way: Publish resumes it
			}
			ids = append(ids, id)
		}
		tw, err := a.lookup(ctx, t, first)
		if err != nil || tw == nil {
			return nil, err
		}
		return published(user.Username, ids), nil
	}
	tws, err := a.recent(ctx, t, user.ID, req)
	if err != nil {
		return nil, err
	}
	for _, tw := range tws {
		if sameText(tw.Text, chain[0].text) && (p.ReplyToTweetID == "" || tw.repliesTo() == p.ReplyToTweetID) {
			if len(chain) == 1 {
				return published(user.Username, []string{tw.ID}), nil
			}
			// A thread: its first tweet is found; the rest is resumed by Publish.
			_ = req.Save(ctx, "tweet.0", tw.ID)
			return nil, nil
		}
	}
	return nil, nil
}

// Delete removes the tweet and the rest of its thread (last first).
func (a *Adapter) Delete(ctx context.Context, t *app.Token, req *app.DeleteRequest) error {
	ids := []string{req.ExternalID}
	if s := req.Extra["thread"]; s != "" {
		ids = strings.Split(s, ",")
	}
	for i := len(ids) - 1; i >= 0; i-- {
		var out struct {
			Data struct {
				Deleted bool `json:"deleted"`
			} `json:"data"`
		}
		err := a.api.Do(ctx, core.Request{Method: http.MethodDelete, URL: a.base + "/2/tweets/" + url.PathEscape(ids[i]), Bearer: t.AccessToken}, &out)
		var ne *app.NetworkError
		if err != nil && !(asNE(err, &ne) && ne.Status == http.StatusNotFound) {
			return err
		}
	}
	return nil
}

// Reply posts a reply tweet.
func (a *Adapter) Reply(ctx context.Context, t *app.Token, req *app.ReplyRequest) (*app.Published, error) {
	user, err := a.me(ctx, t, req.Account)
	if err != nil {
		return nil, err
	}
	if id := req.Resume["tweet"]; id != "" {
		return published(user.Username, []string{id}), nil
	}
	id, err := a.create(ctx, t, map[string]any{"text": req.Text, "reply": map[string]any{"in_reply_to_tweet_id": req.ParentExternalID}})
	if err != nil {
		return nil, err
	}
	if req.Checkpoint != nil {
		if err := req.Checkpoint(ctx, "tweet", id); err != nil {
			return nil, err
		}
	}
	return published(user.Username, []string{id}), nil
}

var (
	_ app.Publisher = (*Adapter)(nil)
	_ app.Replier   = (*Adapter)(nil)
)

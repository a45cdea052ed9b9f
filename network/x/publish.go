package x

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
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

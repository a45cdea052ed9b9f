package x

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

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

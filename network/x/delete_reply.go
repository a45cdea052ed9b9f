package x

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/crier/crier/app"
	"github.com/crier/crier/network/core"
)

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

package publishing

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/crier/crier/app"
	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

func (s *Service) publishRequest(ctx context.Context, t store.PublishTarget, acct *app.SocialAccount) (*app.PublishRequest, error) {
	n := app.Network(t.Network)
	payload, err := payloadOf(n, t.Payload)
	if err != nil {
		return nil, permanent(n, "The stored payload cannot be read: "+err.Error())
	}
	req := &app.PublishRequest{AttemptKey: t.AttemptKey, PostID: deref(t.PostID), Network: n, Account: acct, Payload: payload}
	if cp, ok := payload.(app.ChannelPicker); ok {
		if req.Channel, err = cp.PublishChannel(n, acct); err != nil {
			return nil, err
		}
	} else {
		req.Channel = app.SelectedChannel(acct, nil)
	}
	ids := payload.Uploads()
	thumb := thumbnailOf(payload)
	if thumb != "" && app.IsUUID(thumb) {
		ids = append(ids, thumb)
	}
	var more []string
	if mm, ok := payload.(app.MoreMedia); ok {
		more = mm.MoreUploads()
		ids = append(ids, more...)
	}
	files, err := s.mediaFiles(ctx, t.OrganizationID, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range payload.Uploads() {
		f, ok := files[id]
		if !ok {
			return nil, permanent(n, "Upload "+id+" no longer exists")
		}
		req.Media = append(req.Media, f)
	}
	if f, ok := files[thumb]; ok && thumb != "" {
		req.Thumbnail = &f
	}
	for _, id := range more {
		f, ok := files[id]
		if !ok {
			return nil, permanent(n, "Upload "+id+" no longer exists")
		}
		if req.More == nil {
			req.More = map[string]app.MediaFile{}
		}
		req.More[id] = f
	}
	applyAltTexts(payload, req.Media)
	return req, nil
}

func thumbnailOf(p app.Payload) string {
	if t, ok := p.(app.Thumbnailed); ok {
		return t.ThumbnailRef()
	}
	return ""
}

func applyAltTexts(p app.Payload, media []app.MediaFile) {
	if a, ok := p.(app.AltTexter); ok {
		a.ApplyAltTexts(media)
	}
}

// mediaFiles resolves uploads for networks: a signed URL (networks that pull) and a reader.
func (s *Service) mediaFiles(ctx context.Context, orgID string, ids []string) (map[string]app.MediaFile, error) {
	out := map[string]app.MediaFile{}
	if len(ids) == 0 {
		return out, nil
	}
	st := s.storage
	rows, err := s.q.UploadsOf(ctx, store.UploadsOfParams{OrganizationID: orgID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("app: publish media: %w", err)
	}
	for _, r := range rows {
		url, err := st.PresignGet(ctx, r.Path, storage.MaxPresignTTL)
		if err != nil {
			return nil, fmt.Errorf("app: publish media: %w", err)
		}
		path := r.Path
		f := app.MediaFile{UploadID: r.ID, Type: r.Type, Mime: r.Mime, Ext: r.Ext, Size: r.FileSize, URL: url,
			Open: func(ctx context.Context) (io.ReadCloser, error) { return st.GetRange(ctx, path, 0, -1) }}
		if r.Width.Valid {
			f.Width, f.Height = int(r.Width.Int32), int(r.Height.Int32)
		}
		if r.VideoLength.Valid {
			f.Duration = time.Duration(r.VideoLength.Float64 * float64(time.Second))
		}
		out[r.ID] = f
	}
	return out, nil
}

// replyRequest resolves a comment or first comment: its text and the parent it replies under.
func (s *Service) replyRequest(ctx context.Context, t store.PublishTarget, acct *app.SocialAccount) (*app.ReplyRequest, error) {
	n := app.Network(t.Network)
	var body struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(t.Payload, &body)
	var parent *store.PublishTarget
	switch {
	case t.Kind == app.TargetFirstComment:
		ts, err := s.q.ListPostTargets(ctx, []string{*t.PostID})
		if err != nil {
			return nil, err
		}
		for i := range ts {
			if ts[i].Kind == app.TargetPost && ts[i].Network == t.Network {
				parent = &ts[i]
			}
		}
	default:
		c, err := s.q.GetCommentByID(ctx, *t.CommentID)
		if err != nil {
			return nil, err
		}
		var ts []store.PublishTarget
		kind := app.TargetPost
		if c.InternalParentCommentID != nil {
			ts, err = s.q.ListCommentTargets(ctx, []string{*c.InternalParentCommentID})
			kind = app.TargetComment
		} else if c.InternalPostID != nil {
			ts, err = s.q.ListPostTargets(ctx, []string{*c.InternalPostID})
		}
		if err != nil {
			return nil, err
		}
		for i := range ts {
			if ts[i].Kind == kind && ts[i].Network == t.Network {
				parent = &ts[i]
			}
		}
	}
	if parent == nil {
		return nil, permanent(n, "The post or comment replied to is not published on "+n.DisplayName())
	}
	if parent.Status != string(app.PostPosted) || parent.ExternalID == nil {
		if finalTargetStatuses[app.PostStatus(parent.Status)] {
			return nil, permanent(n, "The post or comment replied to was not published on "+n.DisplayName()+" ("+parent.Status+")")
		}
		return nil, &app.NetworkError{Network: n, Class: app.ErrRateLimited, Message: "waiting for the post or comment replied to to be published",
			ResetAt: s.now().Add(30 * time.Second)}
	}
	var extra map[string]string
	_ = json.Unmarshal(parent.Extra, &extra)
	return &app.ReplyRequest{AttemptKey: t.AttemptKey, Account: acct, Channel: app.SelectedChannel(acct, nil), ParentExternalID: *parent.ExternalID,
		ParentExtra: extra, Text: body.Text}, nil
}

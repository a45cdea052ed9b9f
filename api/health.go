package api

import (
	"context"
	"time"

	"github.com/crier/crier/app"
)

// AppGetHealth answers GET /api/v1: Crier's status and every network's.
func (s *Server) AppGetHealth(ctx context.Context, _ AppGetHealthRequestObject) (AppGetHealthResponseObject, error) {
	h, err := s.svc.Health(ctx)
	if err != nil {
		return nil, err
	}
	out := AppGetHealth200JSONResponse{Status: h.Status, Note: h.Note, CreatedAt: h.CreatedAt.Format(time.RFC3339Nano)}
	for n, p := range h.Platforms {
		if f := platformField(&out.Platforms, n); f != nil {
			*f = HealthPlatformStatus{Status: HealthPlatformStatusStatus(p.Status), Note: p.Note}
		}
	}
	return out, nil
}

// platformField is the generated struct's field for network n.
func platformField(p *HealthPlatforms, n app.Network) *HealthPlatformStatus {
	switch n {
	case app.TikTok:
		return &p.TIKTOK
	case app.YouTube:
		return &p.YOUTUBE
	case app.Instagram:
		return &p.INSTAGRAM
	case app.Facebook:
		return &p.FACEBOOK
	case app.Twitter:
		return &p.TWITTER
	case app.Threads:
		return &p.THREADS
	case app.LinkedIn:
		return &p.LINKEDIN
	case app.Pinterest:
		return &p.PINTEREST
	case app.Reddit:
		return &p.REDDIT
	case app.Mastodon:
		return &p.MASTODON
	case app.Discord:
		return &p.DISCORD
	case app.Slack:
		return &p.SLACK
	case app.Bluesky:
		return &p.BLUESKY
	case app.GoogleBusiness:
		return &p.GOOGLEBUSINESS
	case app.Snapchat:
		return &p.SNAPCHAT
	}
	return nil
}

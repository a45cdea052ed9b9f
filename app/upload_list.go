package app

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/media"
	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

// UploadFilter is GET /upload's query; empty fields do not filter.
type UploadFilter struct {
	TeamID       *string
	Types        []string // image | video | document (type and types together)
	Status       string   // USED | UNUSED
	IDs          []string
	URLs         []string
	IncludePosts bool
}

// ListUploads answers the organization's uploads, newest first.
func (s *Service) ListUploads(ctx context.Context, f UploadFilter, page Page) ([]Upload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if err := page.Validate(); err != nil {
		return nil, err
	}
	params := store.ListUploadsParams{OrganizationID: pr.OrganizationID, Types: []string{}, Ids: []string{}, Paths: []string{},
		Off: int32(page.Offset), Lim: int32(page.Limit)}
	for i, t := range f.Types {
		switch media.Kind(t) {
		case media.KindImage, media.KindVideo, media.KindDocument:
			params.Types = append(params.Types, t)
		default:
			return nil, Invalid("Validation failed: types: Invalid enum value. Expected 'image' | 'video' | 'document'",
				Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value. Expected 'image' | 'video' | 'document', received '" + t + "'", Path: []any{"types", i}})
		}
	}
	switch f.Status {
	case "":
	case "USED", "UNUSED":
		params.Used = pgtype.Bool{Bool: f.Status == "USED", Valid: true}
	default:
		return nil, issue(IssueInvalidEnumValue, "status", "Invalid enum value. Expected 'USED' | 'UNUSED'")
	}
	if params.TeamID, err = s.checkTeam(ctx, s.q, pr.OrganizationID, f.TeamID); err != nil {
		return nil, err
	}
	params.Ids = append(params.Ids, f.IDs...)
	for _, u := range f.URLs {
		if key, ok := d.st.KeyOf(u); ok {
			params.Paths = append(params.Paths, key)
		}
	}
	if len(f.URLs) > 0 && len(params.Paths) == 0 {
		return []Upload{}, nil // none of the URLs is one of Crier's
	}
	rows, err := s.q.ListUploads(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("app: list uploads: %w", err)
	}
	out := make([]Upload, 0, len(rows))
	for _, r := range rows {
		out = append(out, *s.UploadFromRow(ctx, r))
	}
	if f.IncludePosts {
		if err := s.attachPosts(ctx, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Service) attachPosts(ctx context.Context, ups []Upload) error {
	ids := make([]string, len(ups))
	for i, u := range ups {
		ids[i] = u.ID
		ups[i].Posts = []UploadPostLink{}
	}
	if len(ids) == 0 {
		return nil
	}
	links, err := s.q.ListUploadPostLinks(ctx, ids)
	if err != nil {
		return fmt.Errorf("app: upload posts: %w", err)
	}
	byUpload := map[string][]UploadPostLink{}
	for _, l := range links {
		byUpload[l.UploadID] = append(byUpload[l.UploadID], UploadPostLink{PostID: l.PostID, UploadID: l.UploadID, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, DeletedAt: l.DeletedAt})
	}
	for i := range ups {
		if l := byUpload[ups[i].ID]; l != nil {
			ups[i].Posts = l
		}
	}
	return nil
}

// GetUpload answers one upload with its posts.
func (s *Service) GetUpload(ctx context.Context, id string) (*Upload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	row, err := s.q.GetUpload(ctx, store.GetUploadParams{ID: id, OrganizationID: pr.OrganizationID})
	if err != nil {
		return nil, NotFoundOr(err, "Upload", "app: get upload")
	}
	out := []Upload{*s.UploadFromRow(ctx, row)}
	if err := s.attachPosts(ctx, out); err != nil {
		return nil, err
	}
	return &out[0], nil
}

// UploadPublicURL answers a signed URL of an upload that lives long enough for networks that pull
// media (Instagram, Threads, Pinterest, Google Business, TikTok) to fetch it while they process.
func (s *Service) UploadPublicURL(ctx context.Context, orgID, id string) (string, error) {
	d := s.uploads
	row, err := s.q.GetUpload(ctx, store.GetUploadParams{ID: id, OrganizationID: orgID})
	if err != nil {
		return "", NotFoundOr(err, "Upload", "app: upload url")
	}
	return d.st.PresignGet(ctx, row.Path, storage.MaxPresignTTL)
}

package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/store"
)

// UploadSorts are the library's orders; the first is the default.
var UploadSorts = []string{"newest", "oldest", "name", "size"}

// LibraryFilter is the dashboard library's query: GET /upload's team, types and status, plus a
// search of names and an order (the API lists newest first and has neither).
type LibraryFilter struct {
	UploadFilter
	Search string // a part of the name, any case
	Sort   string // one of UploadSorts; "" is newest
}

// ListUploadLibrary answers a page of the organization's uploads for the media library, with their
// posts when asked.
func (s *Service) ListUploadLibrary(ctx context.Context, f LibraryFilter, page Page) ([]Upload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	if err := page.Validate(); err != nil {
		return nil, err
	}
	params := store.ListMediaPageParams{OrganizationID: pr.OrganizationID, Types: []string{}, Search: strings.TrimSpace(f.Search),
		Sort: f.Sort, Off: int32(page.Offset), Lim: int32(page.Limit)}
	if params.Sort == "" {
		params.Sort = UploadSorts[0]
	}
	if !slices.Contains(UploadSorts, params.Sort) {
		return nil, issue(IssueInvalidEnumValue, "sort", "Invalid enum value. Expected "+strings.Join(UploadSorts, " | "))
	}
	if len(params.Search) > 4*MaxUploadName {
		return nil, issue(IssueTooBig, "search", "The search is longer than any name")
	}
	for _, t := range f.Types {
		switch t {
		case "image", "video", "document":
			params.Types = append(params.Types, t)
		default:
			return nil, issue(IssueInvalidEnumValue, "types", "Invalid enum value. Expected 'image' | 'video' | 'document'")
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
	rows, err := s.q.ListMediaPage(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("app: upload library: %w", err)
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

package publishing

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

type commentInput struct {
	title                  *string
	postID, parentID       *string
	postDate               time.Time
	status                 app.PostStatus
	types                  []app.Network
	texts                  map[app.Network]string
	importedID, fetchedID  *string
	explicitTypes, anyText bool
}

// commentInput merges p over an existing comment (nil on create).
func (s *Service) commentInput(cur *store.Comment, p app.CommentParams) (*commentInput, error) {
	in := &commentInput{postDate: s.now().UTC(), status: app.PostScheduled, texts: map[app.Network]string{}}
	if cur != nil {
		in.title, in.postID, in.parentID, in.postDate, in.status = cur.Title, cur.InternalPostID, cur.InternalParentCommentID, cur.PostDate, app.PostStatus(cur.Status)
		in.importedID, in.fetchedID = cur.ImportedPostID, cur.FetchedParentCommentID
		for _, n := range cur.SocialAccountTypes {
			in.types = append(in.types, app.Network(n))
		}
		var data map[app.Network]app.CommentText
		_ = json.Unmarshal(cur.Data, &data)
		for n, t := range data {
			if t.Text != nil {
				in.texts[n] = *t.Text
			}
		}
	}
	if p.Title != nil {
		in.title = p.Title
	}
	if p.InternalPostID != nil {
		in.postID = p.InternalPostID
	}
	if p.InternalParentCommentID != nil {
		in.parentID = p.InternalParentCommentID
	}
	if p.ImportedPostID != nil {
		in.importedID = p.ImportedPostID
	}
	if p.FetchedParentCommentID != nil {
		in.fetchedID = p.FetchedParentCommentID
	}
	if p.PostDate != nil {
		t, err := parsePostDate(*p.PostDate, "postDate")
		if err != nil {
			return nil, err
		}
		in.postDate = t
	}
	if p.Status != nil {
		in.status = *p.Status
	}
	if p.SocialAccountTypes != nil {
		in.types, in.explicitTypes = uniqueNetworks(p.SocialAccountTypes), true
	}
	for n, t := range p.Data {
		if t.Text != nil {
			in.texts[n] = *t.Text
		}
		if !in.explicitTypes && !containsNetwork(in.types, n) {
			in.types = append(in.types, n)
		}
	}
	if p.Text != nil {
		in.texts[app.Network("*")] = *p.Text
	}
	if (in.importedID != nil || in.fetchedID != nil) && in.postID == nil && in.parentID == nil {
		return nil, app.Errorf(app.ENotImplemented, "Replying to imported posts and fetched comments needs the imports capability, which has not landed")
	}
	if in.postID == nil && in.parentID == nil {
		return nil, app.Invalid("Validation failed: internalPostId: Required",
			app.Issue{Code: app.IssueInvalidType, Message: "internalPostId or internalParentCommentId is required", Path: []any{"internalPostId"}})
	}
	if in.status != app.PostDraft && in.status != app.PostScheduled {
		return nil, app.Invalid("Validation failed: status: Invalid enum value",
			app.Issue{Code: app.IssueInvalidEnumValue, Message: "Invalid enum value. Expected 'DRAFT' | 'SCHEDULED', received '" + string(in.status) + "'", Path: []any{"status"}})
	}
	return in, nil
}

func (in *commentInput) textOf(n app.Network) string {
	if t, ok := in.texts[n]; ok {
		return t
	}
	return in.texts[app.Network("*")]
}

// resolveParent checks the post or comment replied to (same team) and defaults the networks to its.
func (s *Service) resolveCommentParent(ctx context.Context, q *store.Queries, orgID, teamID string, in *commentInput) error {
	var parentTypes []string
	if in.parentID != nil {
		c, err := q.GetComment(ctx, store.GetCommentParams{ID: *in.parentID, OrganizationID: orgID})
		if err != nil || c.DeletedAt != nil || c.TeamID != teamID {
			return app.NotFoundOr(errOr(err, pgx.ErrNoRows), "Comment", "app: comment parent")
		}
		parentTypes = c.SocialAccountTypes
		if in.postID == nil {
			in.postID = c.InternalPostID
		}
	} else {
		p, err := q.GetPost(ctx, store.GetPostParams{ID: *in.postID, OrganizationID: orgID})
		if err != nil || p.DeletedAt != nil || p.TeamID != teamID {
			return app.NotFoundOr(errOr(err, pgx.ErrNoRows), "Post", "app: comment parent")
		}
		parentTypes = p.SocialAccountTypes
	}
	if len(in.types) == 0 {
		for _, n := range parentTypes {
			if commentNetwork(app.Network(n)) {
				in.types = append(in.types, app.Network(n))
			}
		}
	}
	var issues []app.Issue
	if len(in.types) == 0 {
		issues = append(issues, app.Issue{Code: app.IssueTooSmall, Message: "Array must contain at least 1 element(s)", Path: []any{"socialAccountTypes"}})
	}
	for i, n := range in.types {
		if !commentNetwork(n) {
			issues = append(issues, app.Issue{Code: app.IssueInvalidEnumValue, Message: "Invalid enum value '" + string(n) + "'", Path: []any{"socialAccountTypes", i}})
			continue
		}
		found := false
		for _, pn := range parentTypes {
			found = found || pn == string(n)
		}
		if !found {
			issues = append(issues, app.Issue{Code: app.IssueCustom, Message: "The post or comment replied to does not publish to " + n.DisplayName(), Path: []any{"socialAccountTypes", i}})
		}
		if strings.TrimSpace(in.textOf(n)) == "" {
			issues = append(issues, app.StringMin(1, "data", string(n), "text"))
		}
	}
	if len(issues) > 0 {
		return issuesError(issues)
	}
	return nil
}

// commentNetwork reports whether posts on n can be commented on through Crier.
func commentNetwork(n app.Network) bool {
	s := app.SpecOf(n)
	return s != nil && s.Comments
}

func (in *commentInput) dataJSON() []byte {
	out := map[app.Network]app.CommentText{}
	for _, n := range in.types {
		t := in.textOf(n)
		out[n] = app.CommentText{Text: &t}
	}
	b, _ := json.Marshal(out)
	return b
}

package publishing

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/crier/crier/app"
	"github.com/crier/crier/store"
)

// ruleUploads answers the uploads the rules check, by id, and every upload row known (for the
// record's links). rows were read with the post for the ids asked (and, for an edit, the post's
// links); an id of the post's content read neither way is read now with q.
func (s *Service) ruleUploads(ctx context.Context, q *store.Queries, orgID string, in *postInput, rows []store.Upload, asked []string) (map[string]*app.Upload, map[string]store.Upload, error) {
	byID := make(map[string]store.Upload, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	known := make(map[string]bool, len(asked))
	for _, id := range asked {
		known[id] = true
	}
	ids := app.RuleUploadIDs(&in.data)
	var missing []string
	for _, id := range ids {
		if _, ok := byID[id]; !ok && !known[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		more, err := q.UploadsOf(ctx, store.UploadsOfParams{OrganizationID: orgID, Ids: missing})
		if err != nil {
			return nil, nil, fmt.Errorf("app: post uploads: %w", err)
		}
		for _, r := range more {
			byID[r.ID] = r
		}
	}
	uploads := map[string]*app.Upload{}
	for _, id := range ids {
		if r, ok := byID[id]; ok {
			uploads[id] = s.accounts.UploadFromRow(ctx, r)
		}
	}
	return uploads, byID, nil
}

// lowerUUIDs are the ids UploadsOf can match (its text comparison with the canonical form).
func lowerUUIDs(ids []string) []string {
	var out []string
	for _, id := range ids {
		if app.IsUUID(id) && strings.ToLower(id) == id {
			out = append(out, id)
		}
	}
	return out
}

// keyTaken says the reference key asked belongs to a live post other than self.
func keyTaken(owner []store.Post, self string) bool {
	return len(owner) > 0 && owner[0].ID != self
}

func errReferenceKeyTaken() error {
	return app.Invalid("Validation failed: referenceKey: A post with this referenceKey already exists",
		app.Issue{Code: app.IssueCustom, Message: "A post with this referenceKey already exists", Path: []any{"referenceKey"}})
}

func auditRow(item app.AuditItem) *store.InsertAuditItemParams {
	row := app.AuditRow(item)
	return &row
}

// writtenRecord is the record of a post just written: what getPost would read back after the
// commit, built from the rows written and those read for the checks instead. before are the
// post's targets before the write (none for a new post). With stored, its data is left as stored
// (StoredData, Data empty).
func (s *Service) writtenRecord(ctx context.Context, w store.PostWritten, before []store.PublishTarget, accounts []store.SocialAccount,
	uploads map[string]store.Upload, verbose, stored bool) *app.Post {
	byID := make(map[string]store.PublishTarget, len(before)+len(w.Targets))
	for _, t := range before {
		byID[t.ID] = t
	}
	for _, t := range w.Targets {
		if t.ID != "" {
			byID[t.ID] = t
		}
	}
	for _, id := range w.Removed {
		delete(byID, id)
	}
	r := store.PostReads{ShowVerboseErrors: verbose, Accounts: accounts, Targets: make([]store.PublishTarget, 0, len(byID))}
	for _, t := range byID {
		r.Targets = append(r.Targets, t)
	}
	// The read's order (ORDER BY kind, network): ASCII upper-case names, the same in byte order.
	sort.Slice(r.Targets, func(i, j int) bool {
		a, b := r.Targets[i], r.Targets[j]
		return a.Kind < b.Kind || a.Kind == b.Kind && a.Network < b.Network
	})
	// The read's order (ORDER BY created_at, upload_id), links to live uploads only.
	links := append([]store.PostUpload(nil), w.Links...)
	sort.Slice(links, func(i, j int) bool {
		a, b := links[i], links[j]
		return a.CreatedAt.Before(b.CreatedAt) || a.CreatedAt.Equal(b.CreatedAt) && a.UploadID < b.UploadID
	})
	for _, l := range links {
		if u, ok := uploads[l.UploadID]; ok {
			r.UploadLinks, r.Uploads = append(r.UploadLinks, l), append(r.Uploads, u)
		}
	}
	p := &s.buildPostViews(ctx, []store.Post{w.Post}, r, true, stored)[0]
	p.StoredData = w.Post.Data // the API answers from the stored form, as GET post does; the dashboard reads Data
	return p
}

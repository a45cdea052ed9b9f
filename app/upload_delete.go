package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// DeleteUploads deletes uploads of the organization, all or none: an unknown id is 404, an upload
// used by a scheduled post is 400 naming the posts. Their objects leave storage after the commit.
func (s *Service) DeleteUploads(ctx context.Context, ids []string) ([]Upload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if len(ids) == 0 {
		return nil, Invalid("Validation failed: ids: Array must contain at least 1 element(s)",
			Issue{Code: IssueTooSmall, Message: "Array must contain at least 1 element(s)", Path: []any{"ids"}})
	}
	var rows []store.Upload
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		found, err := q.GetUploadsByIDs(ctx, store.GetUploadsByIDsParams{OrganizationID: pr.OrganizationID, Ids: ids})
		if err != nil {
			return fmt.Errorf("app: delete uploads: %w", err)
		}
		have := map[string]bool{}
		for _, r := range found {
			have[r.ID] = true
		}
		for _, id := range ids {
			if !have[id] {
				return NotFound("Upload")
			}
		}
		uniq := make([]string, 0, len(found))
		for _, r := range found {
			uniq = append(uniq, r.ID)
		}
		blocking, err := scheduledPostsUsing(ctx, q, pr.OrganizationID, uniq)
		if err != nil {
			return fmt.Errorf("app: delete uploads: %w", err)
		}
		var issues []Issue
		for i, id := range ids {
			if posts := blocking[id]; len(posts) > 0 {
				issues = append(issues, Issue{Code: IssueCustom, Path: []any{"ids", i},
					Message: fmt.Sprintf("Upload %s is used by scheduled posts %s; remove it from them first", id, strings.Join(posts, ", "))})
			}
		}
		if len(issues) > 0 {
			return Invalid("Validation failed: ids: "+issues[0].Message, issues...)
		}
		if rows, err = q.SoftDeleteUploads(ctx, store.SoftDeleteUploadsParams{OrganizationID: pr.OrganizationID, Ids: uniq}); err != nil {
			return fmt.Errorf("app: delete uploads: %w", err)
		}
		for _, r := range rows {
			if err := s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "upload.deleted", TargetType: "upload", TargetID: r.ID,
				Metadata: map[string]any{"mime": r.Mime, "fileSize": r.FileSize}})); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Upload, 0, len(rows))
	for _, r := range rows {
		out = append(out, *s.UploadFromRow(ctx, r))
		out[len(out)-1].URL, out[len(out)-1].ThumbnailURL, out[len(out)-1].IconURL = nil, nil, nil
	}
	s.purge(context.WithoutCancel(ctx), d, rows)
	return out, nil
}

// DeleteUpload deletes one upload.
func (s *Service) DeleteUpload(ctx context.Context, id string) (*Upload, error) {
	out, err := s.DeleteUploads(ctx, []string{id})
	if err != nil {
		if e := (*Error)(nil); errors.As(err, &e) && e.Code == EInvalid && len(e.Issues) > 0 {
			e.Issues[0].Path = []any{"id"}
		}
		return nil, err
	}
	return &out[0], nil
}

// purge removes deleted uploads' objects and marks them purged; what fails stays for the cleanup job.
func (s *Service) purge(ctx context.Context, d *uploadDeps, rows []store.Upload) int {
	var done []string
	for _, r := range rows {
		ok := true
		for _, k := range []*string{&r.Path, r.ThumbnailPath, r.IconPath} {
			if k == nil {
				continue
			}
			if err := d.st.Delete(ctx, *k); err != nil {
				s.log.WarnContext(ctx, "purge upload object", "key", *k, "err", err)
				ok = false
			}
		}
		if ok {
			done = append(done, r.ID)
		}
	}
	if len(done) > 0 {
		if err := s.q.MarkUploadsPurged(ctx, done); err != nil {
			s.log.WarnContext(ctx, "mark uploads purged", "err", err)
		}
	}
	return len(done)
}

// UploadCleanup is what one run of the cleanup job did.
type UploadCleanup struct {
	Expired, Purged, Abandoned int
}

// CleanupUploads is the periodic job: it deletes unused uploads older than the retention, removes
// the objects of deleted uploads, and discards signed-URL uploads abandoned before completion.
func (s *Service) CleanupUploads(ctx context.Context) (UploadCleanup, error) {
	var res UploadCleanup
	d := s.uploads
	const batch = 500
	now := s.now()
	var expired []store.Upload
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		rows, err := q.ListExpiredUnusedUploads(ctx, store.ListExpiredUnusedUploadsParams{Before: now.Add(-d.opts.Retention), Lim: batch})
		if err != nil {
			return fmt.Errorf("app: cleanup uploads: %w", err)
		}
		byOrg := map[string][]string{}
		for _, r := range rows {
			byOrg[r.OrganizationID] = append(byOrg[r.OrganizationID], r.ID)
		}
		for org, ids := range byOrg {
			deleted, err := q.SoftDeleteUploads(ctx, store.SoftDeleteUploadsParams{OrganizationID: org, Ids: ids})
			if err != nil {
				return fmt.Errorf("app: cleanup uploads: %w", err)
			}
			expired = append(expired, deleted...)
			if err := s.Audit(ctx, tx, AuditItem{OrganizationID: org, ActorType: "SYSTEM", ActorName: "upload retention",
				Action: "upload.expired", TargetType: "upload", Metadata: map[string]any{"ids": ids, "retentionDays": int(d.opts.Retention.Hours() / 24)}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.Expired = len(expired)
	unpurged, err := s.q.ListUnpurgedUploads(ctx, batch)
	if err != nil {
		return res, fmt.Errorf("app: cleanup uploads: %w", err)
	}
	res.Purged = s.purge(ctx, d, unpurged)
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		stale, err := q.ListStaleUploadSessions(ctx, store.ListStaleUploadSessionsParams{Before: now.Add(-d.opts.AbandonAfter), Lim: batch})
		if err != nil {
			return fmt.Errorf("app: cleanup upload sessions: %w", err)
		}
		for _, sess := range stale {
			if sess.MultipartID != nil {
				err = d.st.AbortMultipart(ctx, sess.Path, *sess.MultipartID)
			} else {
				err = d.st.Delete(ctx, sess.Path)
			}
			if err != nil {
				s.log.WarnContext(ctx, "discard abandoned upload", "path", sess.Path, "err", err)
				continue
			}
			if err := q.AbortUploadSession(ctx, sess.ID); err != nil {
				return fmt.Errorf("app: cleanup upload sessions: %w", err)
			}
			res.Abandoned++
		}
		return nil
	})
	return res, err
}
